binfer: --model is required
