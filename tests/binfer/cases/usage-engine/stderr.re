binfer: --engine: expected ollama, openai or extractive, got 'gpt'
