^binfer: <stdin>:1: content
