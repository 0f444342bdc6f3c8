^binfer: <stdin>:1: tokens: expected an object
