binfer: --jobs
