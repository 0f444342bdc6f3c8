#!/usr/bin/env python3
"""A model server for binfer's tests, speaking Ollama's native API and the
OpenAI chat completions API as their documentation shows, and misbehaving on
demand.  Standard library only.

  GET  /api/tags               {"models": [{name, model, modified_at, size, digest, details}]}
  POST /api/chat               Ollama chat: one object, or NDJSON when stream is true
                               (last line done:true with done_reason, total_duration,
                               load_duration, prompt_eval_count, prompt_eval_duration,
                               eval_count, eval_duration in nanoseconds)
  GET  /api/version            {"version"}
  POST /api/show               {"model_info": {"<family>.context_length": --ctx-len}, ...}
  GET  /v1/models              OpenAI model list
  POST /v1/chat/completions    OpenAI chat completion, or server-sent events when
                               stream is true ("data: CHUNK", usage chunk when
                               stream_options.include_usage, "data: [DONE]")

"Tokens" are white-space separated words of the message contents, so the
fixtures can carry the matching btok counts.  Misbehaviour is asked for by
markers in the last user message (N: only the first N attempts of that prompt):

  [[500]] [[500xN]]         HTTP 500
  [[429xN]]                 HTTP 429 with Retry-After: 1
  [[429DATExN]]             HTTP 429 with Retry-After as an HTTP-date 2 s ahead
  [[RESETxN]]               headers and half the body, then the connection closes
  [[MALFORMEDxN]]           HTTP 200 with a body that is not JSON
  [[400]]                   HTTP 400 (a bad request, not an overflow)
  [[OVERFLOW]]              HTTP 400 context overflow error
  [[TRUNCATE]]              prompt_eval_count 100 (silent truncation)
  [[THINK]]                 a <think>...</think> block before the answer
  [[LENGTH]]                stops at num_predict (done_reason / finish_reason "length")
  [[SLOW:S]]                answer after S seconds
  [[ECHOKEY]]               HTTP 401 whose error message repeats the Authorization header

Ollama requests whose prompt is longer than options.num_ctx get the 400
overflow error when truncate is false, else are cut silently as Ollama does.
Every request is appended to the --log file as one JSON line: {path, body (parsed),
raw (the body's bytes as received, as a string), authorization (the header, or null)}.

usage: server.py --port-file FILE --log FILE [--api-key KEY] [--n-ctx N] [--ctx-len N] [--salt S]
                 [--openai-only]
"""
import argparse
import hashlib
import json
import re
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODELS = ["llama3.3:8b-instruct-q8_0", "qwen3:8b-q8_0", "test:latest", "judge:latest"]
LOCK = threading.Lock()
ATTEMPTS = {}
ARGS = None


def digest(name):
    salt = ARGS.salt if ARGS and ARGS.salt else ""
    return hashlib.sha256((salt + name).encode()).hexdigest()


def words(text):
    return len(text.split())


def attempt_of(key):
    with LOCK:
        ATTEMPTS[key] = ATTEMPTS.get(key, 0) + 1
        return ATTEMPTS[key]


def marker(text, name, attempt):
    """True when [[NAME]] is present, or [[NAMExN]] with attempt <= N."""
    if "[[%s]]" % name in text:
        return True
    m = re.search(r"\[\[%sx(\d+)\]\]" % name, text)
    return bool(m) and attempt <= int(m.group(1))


def answer_for(messages):
    system = " ".join(m.get("content", "") for m in messages if m.get("role") == "system")
    user = [m.get("content", "") for m in messages if m.get("role") == "user"][-1]
    if "impartial grader" in system:
        if "[[BADVERDICT]]" in user:
            return "I think the response is fine."
        return ('Verdict:\n```json\n{"factual_accuracy": 2, "completeness": 1, '
                '"hallucination_count": 0, "rationale": "matches the gold answer mostly"}\n```')
    m = re.search(r"Question: (.*)", user)
    q = m.group(1).strip() if m else user[:40]
    return "Answer to: " + q


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True   # headers and body go out as written

    def log_message(self, *a):
        pass

    def send_json(self, status, obj, headers=()):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def send_raw(self, status, ctype, body):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def reset(self, ctype, body):
        """Promise the whole body, send half of it, close the connection."""
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[: len(body) // 2])
        self.wfile.flush()
        self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True

    def stream(self, ctype, chunks):
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for c in chunks:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(c), c))
        self.wfile.write(b"0\r\n\r\n")

    def do_GET(self):
        if ARGS.openai_only and self.path.startswith("/api/"):
            self.send_json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
        elif self.path == "/api/tags":
            self.send_json(200, {"models": [
                {"name": n, "model": n, "modified_at": "2026-02-20T10:00:00Z", "size": 8000000000,
                 "digest": digest(n),
                 "details": {"format": "gguf", "family": n.split(":")[0], "quantization_level": "Q8_0"}}
                for n in MODELS]})
        elif self.path == "/api/version":
            self.send_json(200, {"version": "0.12.6"})
        elif self.path == "/v1/models":
            self.send_json(200, {"object": "list", "data": [
                {"id": n, "object": "model", "created": 1771581600, "owned_by": "library"} for n in MODELS]})
        else:
            self.send_json(404, {"error": "not found"})

    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n)
        try:
            req = json.loads(raw)
        except ValueError:
            self.send_json(400, {"error": "invalid JSON"})
            return
        with LOCK:
            with open(ARGS.log, "a") as f:
                f.write(json.dumps({"path": self.path, "body": req,
                                    "raw": raw.decode("utf-8", "surrogateescape"),
                                    "authorization": self.headers.get("Authorization")}) + "\n")
        if self.path == "/api/show":
            name = req.get("model", "")
            if name not in MODELS and name + ":latest" not in MODELS:
                self.send_json(404, {"error": "model '%s' not found" % name})
                return
            arch = name.split(":")[0].rstrip("0123456789.")
            self.send_json(200, {"modelfile": "", "parameters": "", "template": "{{ .Prompt }}",
                                 "details": {"format": "gguf", "family": arch},
                                 "model_info": {"general.architecture": arch,
                                                "%s.context_length" % arch: ARGS.ctx_len,
                                                "%s.embedding_length" % arch: 4096}})
        elif self.path == "/api/chat":
            self.chat(req, ollama=True)
        elif self.path == "/v1/chat/completions":
            if ARGS.api_key and self.headers.get("Authorization") != "Bearer " + ARGS.api_key:
                self.send_json(401, {"error": {"message": "invalid api key", "type": "invalid_request_error",
                                               "code": "invalid_api_key"}})
                return
            self.chat(req, ollama=False)
        else:
            self.send_json(404, {"error": "not found"})

    def chat(self, req, ollama):
        messages = req.get("messages") or []
        if not isinstance(messages, list) or not messages:
            self.send_json(400, {"error": "messages: expected a non-empty array"})
            return
        user = [m.get("content", "") for m in messages if m.get("role") == "user"][-1]
        key = hashlib.sha256(json.dumps(messages).encode()).hexdigest() + self.path + str(req.get("stream"))
        att = attempt_of(key)
        if ollama:
            opts = req.get("options") or {}
            num_predict = opts.get("num_predict", 128)
            num_ctx = opts.get("num_ctx", 2048)
        else:
            num_predict = req.get("max_tokens", 128)
            num_ctx = ARGS.n_ctx
        m = re.search(r"\[\[SLOW:([0-9.]+)\]\]", user)
        if m:
            time.sleep(float(m.group(1)))
        if marker(user, "500", att):
            self.send_json(500, {"error": "llama runner process has terminated: exit status 2"} if ollama else
                           {"error": {"message": "internal server error", "type": "server_error", "code": 500}})
            return
        if marker(user, "429", att):
            self.send_json(429, {"error": "too many requests"} if ollama else
                           {"error": {"message": "rate limit reached", "type": "rate_limit_error", "code": 429}},
                           headers=[("Retry-After", "1")])
            return
        if marker(user, "429DATE", att):
            when = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 2))
            self.send_json(429, {"error": "too many requests"}, headers=[("Retry-After", when)])
            return
        if "[[ECHOKEY]]" in user:
            self.send_json(401, {"error": {"message": "key rejected: " + (self.headers.get("Authorization") or ""),
                                           "type": "invalid_request_error", "code": "invalid_api_key"}})
            return
        if "[[400]]" in user:
            self.send_json(400, {"error": "invalid option: nonsense"} if ollama else
                           {"error": {"message": "invalid request", "type": "invalid_request_error", "code": 400}})
            return
        prompt_tokens = sum(words(m.get("content", "")) for m in messages)
        overflow = "[[OVERFLOW]]" in user
        if ollama and prompt_tokens > num_ctx:
            if req.get("truncate", True) is False:
                overflow = True
            else:
                prompt_tokens = num_ctx  # Ollama's silent cut
        if overflow:
            if ollama:
                self.send_json(400, {"error": "the input length exceeds the context length"})
            else:
                self.send_json(400, {"error": {"code": 400, "message": "the request exceeds the available "
                                               "context size, try increasing it", "type": "exceed_context_size_error",
                                               "n_prompt_tokens": prompt_tokens, "n_ctx": num_ctx}})
            return
        if "[[TRUNCATE]]" in user:
            prompt_tokens = min(prompt_tokens, 100)
        content = answer_for(messages)
        thinking = None
        if "[[THINK]]" in user:
            if ollama and req.get("think") is True:
                thinking = "Let me look at the content first."
            else:
                content = "<think>\nLet me look at the content first.\n</think>\n\n" + content
        reason = "stop"
        eval_count = words(content)
        if "[[LENGTH]]" in user:
            reason = "length"
            eval_count = num_predict
        model = req.get("model", "")
        stream = bool(req.get("stream", ollama))   # Ollama streams unless told not to
        ctype_json = "application/json; charset=utf-8"
        if ollama:
            final = {"model": model, "created_at": "2026-02-26T10:00:00.000000Z",
                     "message": {"role": "assistant", "content": content}, "done": True, "done_reason": reason,
                     "total_duration": 1500000000, "load_duration": 250000000,
                     "prompt_eval_count": prompt_tokens, "prompt_eval_duration": 500000000,
                     "eval_count": eval_count, "eval_duration": 750000000}
            if thinking:
                final["message"]["thinking"] = thinking
            if not stream:
                body = json.dumps(final).encode()
                if marker(user, "MALFORMED", att):
                    body = body[:-7] + b"}garbage"
                if marker(user, "RESET", att):
                    self.reset(ctype_json, body)
                    return
                self.send_raw(200, ctype_json, body)
                return
            lines = []
            for w in re.findall(r"\S+\s*", content):
                lines.append({"model": model, "created_at": "2026-02-26T10:00:00.000000Z",
                              "message": {"role": "assistant", "content": w}, "done": False})
            final["message"]["content"] = ""
            lines.append(final)
            chunks = [json.dumps(x).encode() + b"\n" for x in lines]
            if marker(user, "MALFORMED", att):
                chunks[0] = b'{"model": "x", "message": {"role": \n'
            if marker(user, "RESET", att):
                self.reset("application/x-ndjson", b"".join(chunks))
                return
            self.stream("application/x-ndjson", chunks)
            return
        comp = {"id": "chatcmpl-%s" % key[:12], "object": "chat.completion", "created": 1772100000,
                "model": model, "system_fingerprint": "fp_test_%s" % digest(model)[:8],
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                             "logprobs": None, "finish_reason": reason}],
                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": eval_count,
                          "total_tokens": prompt_tokens + eval_count},
                "timings": {"prompt_n": prompt_tokens, "prompt_ms": 500.0, "predicted_n": eval_count,
                            "predicted_ms": 750.0}}
        if not stream:
            body = json.dumps(comp).encode()
            if marker(user, "MALFORMED", att):
                body = b"<html>Bad Gateway</html>"
            if marker(user, "RESET", att):
                self.reset(ctype_json, body)
                return
            self.send_raw(200, ctype_json, body)
            return
        base = {"id": comp["id"], "object": "chat.completion.chunk", "created": comp["created"], "model": model,
                "system_fingerprint": comp["system_fingerprint"]}
        events = [dict(base, choices=[{"index": 0, "delta": {"role": "assistant", "content": ""},
                                       "logprobs": None, "finish_reason": None}])]
        for w in re.findall(r"\S+\s*", content):
            events.append(dict(base, choices=[{"index": 0, "delta": {"content": w}, "logprobs": None,
                                               "finish_reason": None}]))
        # llama.cpp's server puts its timings on the finishing chunk
        events.append(dict(base, choices=[{"index": 0, "delta": {}, "logprobs": None, "finish_reason": reason}],
                           timings=comp["timings"]))
        if (req.get("stream_options") or {}).get("include_usage"):
            events.append(dict(base, choices=[], usage=comp["usage"]))
        chunks = [b"data: " + json.dumps(e).encode() + b"\n\n" for e in events]
        chunks.append(b"data: [DONE]\n\n")
        if marker(user, "MALFORMED", att):
            chunks[1] = b"data: {not json\n\n"
        if marker(user, "RESET", att):
            self.reset("text/event-stream", b"".join(chunks))
            return
        self.stream("text/event-stream", chunks)


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # a client that went away (killed run, reset test) is no error
        if not isinstance(sys.exc_info()[1], (ConnectionError, OSError)):
            super().handle_error(request, client_address)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--api-key")
    ap.add_argument("--n-ctx", type=int, default=100000)
    ap.add_argument("--ctx-len", type=int, default=131072, help="the models' context_length in /api/show")
    ap.add_argument("--openai-only", action="store_true", help="no Ollama /api/ paths: a plain OpenAI server")
    ap.add_argument("--salt", help="change the model digests (another build)")
    ARGS = ap.parse_args()
    srv = Server(("127.0.0.1", 0), Handler)
    with open(ARGS.port_file + ".tmp", "w") as f:
        f.write("%d\n" % srv.server_address[1])
    import os
    os.rename(ARGS.port_file + ".tmp", ARGS.port_file)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
