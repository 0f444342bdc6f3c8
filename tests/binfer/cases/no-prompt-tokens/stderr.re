^binfer: <stdin>:1: tokens: no count for tokenizer llama3 \(model x\) — run btok -t llama3
