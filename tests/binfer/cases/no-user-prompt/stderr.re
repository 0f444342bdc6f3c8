^binfer: <stdin>:1: user_prompt: expected a string
