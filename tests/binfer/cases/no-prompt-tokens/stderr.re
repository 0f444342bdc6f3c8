^binfer: <stdin>:1: prompt_tokens: expected btok's count for tokenizer llama3 \(run btok
