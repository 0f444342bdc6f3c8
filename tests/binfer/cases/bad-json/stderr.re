^binfer: <stdin>:2: 
