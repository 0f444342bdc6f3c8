#!/usr/bin/python3
"""mkmodel.py - write a tiny deterministic Llama-architecture GGUF model.

usage: mkmodel.py TOKENIZER.json OUT.gguf

The weights are random numbers from a fixed seed (numpy's PCG64, seed 20251),
so every machine writes the same file; the vocabulary is the real Llama 3
tokenizer (BPE, 128,256 tokens with the special ones), so prompts are
tokenized as the study's Llama models tokenize them and btok's llama3 counts
match the server's.  The chat template is Meta's Llama 3 instruct template.
Two layers of width 64: answers are nonsense, but deterministic, and fast
enough for a test suite on two cores.  Needs llama.cpp's gguf-py on
PYTHONPATH and numpy.
"""
import json
import sys

import numpy as np
import gguf

N_EMBD, N_HEAD, N_FF, N_LAYER, N_CTX = 64, 4, 128, 2, 4096
SEED = 20251

# Meta's Llama 3 instruct chat template (tokenizer_config.json of the
# Llama 3 instruct models).
TEMPLATE = (
    "{% set loop_messages = messages %}{% for message in loop_messages %}"
    "{% set content = '<|start_header_id|>' + message['role'] + "
    "'<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}"
    "{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}"
    "{{ content }}{% endfor %}{% if add_generation_prompt %}"
    "{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}")


def vocab(path):
    tok = json.load(open(path, encoding="utf-8"))
    model = tok["model"]
    if model.get("type") != "BPE":
        sys.exit("mkmodel: %s: model.type: expected BPE" % path)
    ids = dict(model["vocab"])
    special = set()
    for a in tok.get("added_tokens", []):
        ids[a["content"]] = a["id"]
        if a.get("special"):
            special.add(a["id"])
    n = max(ids.values()) + 1
    tokens = ["[PAD%d]" % i for i in range(n)]
    types = [gguf.TokenType.UNUSED] * n
    for t, i in ids.items():
        tokens[i] = t
        types[i] = gguf.TokenType.CONTROL if i in special else gguf.TokenType.NORMAL
    merges = [m if isinstance(m, str) else " ".join(m) for m in model["merges"]]
    return tokens, types, merges


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: mkmodel.py TOKENIZER.json OUT.gguf")
    tokens, types, merges = vocab(sys.argv[1])
    rng = np.random.default_rng(SEED)

    def rand(*shape, scale=0.3):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    w = gguf.GGUFWriter(sys.argv[2], "llama")
    w.add_name("ctxbench tiny llama3 test model")
    w.add_context_length(N_CTX)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD)
    w.add_rope_dimension_count(N_EMBD // N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_freq_base(500000.0)
    w.add_vocab_size(len(tokens))
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("llama-bpe")
    w.add_token_list(tokens)
    w.add_token_types(types)
    w.add_token_merges(merges)
    w.add_bos_token_id(128000)
    w.add_eos_token_id(128009)
    w.add_add_bos_token(True)
    w.add_chat_template(TEMPLATE)

    w.add_tensor("token_embd.weight", rand(len(tokens), N_EMBD, scale=1.0))
    for i in range(N_LAYER):
        b = "blk.%d." % i
        w.add_tensor(b + "attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        for n in ("attn_q", "attn_k", "attn_v", "attn_output"):
            w.add_tensor(b + n + ".weight", rand(N_EMBD, N_EMBD))
        w.add_tensor(b + "ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        w.add_tensor(b + "ffn_gate.weight", rand(N_FF, N_EMBD))
        w.add_tensor(b + "ffn_up.weight", rand(N_FF, N_EMBD))
        w.add_tensor(b + "ffn_down.weight", rand(N_EMBD, N_FF))
    w.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


if __name__ == "__main__":
    main()
