^binfer: <stdin>:1: prompt_tokens.llama3: expected a non-negative integer
