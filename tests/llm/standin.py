#!/usr/bin/env python3
"""A local stand-in for an LLM provider, for the tests of the real libcurl client (no LLM runs here).

Speaks both wire formats as the providers' public API references describe them:
  - OpenAI chat completions: POST .../chat/completions with "stream": true answers `data: {chat.completion.chunk}`
    lines and `data: [DONE]`; a tool call's id and name come in its first delta, its `function.arguments` text in
    pieces across later chunks, each delta naming the call by `index`; usage in a last chunk with empty choices.
  - Anthropic Messages: POST /v1/messages answers named events message_start, content_block_start (text or
    tool_use), content_block_delta (text_delta / input_json_delta partial_json), content_block_stop, message_delta
    (stop_reason, usage), message_stop, with ping events in between.

Scripted by a JSON scenario file: {"responses": [STEP, ...]}; each POST takes the next step (past the last one the
answer is HTTP 500 "scenario exhausted"). A step:
  status (200), headers {}, body (error body, text or JSON), delay_s (before the headers),
  text [pieces], tool_calls [{"id", "name", "arguments": [pieces]}], stop (the stop reason),
  usage {"input", "output"}, echo_tool_result (the text quotes the first row of the request's last tool result),
  raw [strings written as they are, instead of the generated stream], omit_end (no [DONE] / message_stop),
  split_bytes N (the stream is written N bytes at a time), chunk_delay_s, hang_s (after the stream, before closing),
  body_repeat N (an error body is `body` N times, written one at a time, chunk_delay_s apart).
Every request is appended to the --log file as one JSON line {"path", "headers", "body"}.
Prints "PORT <n>" on stdout once listening on 127.0.0.1.
"""
import argparse
import http.server
import json
import sys
import threading
import time


class State:
    def __init__(self, scenario, log_path):
        self.responses = scenario.get("responses", [])
        self.next = 0
        self.lock = threading.Lock()
        self.log_path = log_path

    def take(self, record):
        with self.lock:
            if self.log_path:
                with open(self.log_path, "a", encoding="utf-8") as f:
                    f.write(json.dumps(record) + "\n")
            if self.next >= len(self.responses):
                return None
            step = self.responses[self.next]
            self.next += 1
            return step


def last_tool_result(body, anthropic):
    """The content of the last tool result in the request, in either format."""
    for message in reversed(body.get("messages", [])):
        if anthropic:
            content = message.get("content")
            if message.get("role") == "user" and isinstance(content, list):
                for block in reversed(content):
                    if block.get("type") == "tool_result":
                        c = block.get("content")
                        return c if isinstance(c, str) else json.dumps(c)
        elif message.get("role") == "tool":
            return message.get("content", "")
    return ""


def openai_events(step, body):
    base = {"id": "chatcmpl-standin", "object": "chat.completion.chunk", "created": 1700000000,
            "model": body.get("model", "")}

    def chunk(delta, finish=None):
        return dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": finish}])

    events = [chunk({"role": "assistant", "content": ""})]
    for piece in text_pieces(step, body, anthropic=False):
        events.append(chunk({"content": piece}))
    for i, call in enumerate(step.get("tool_calls", [])):
        events.append(chunk({"tool_calls": [{"index": i, "id": call.get("id", "call_%d" % i), "type": "function",
                                             "function": {"name": call["name"], "arguments": ""}}]}))
        for piece in call.get("arguments", []):
            events.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}))
    stop = step.get("stop", "tool_calls" if step.get("tool_calls") else "stop")
    events.append(chunk({}, stop))
    usage = step.get("usage", {})
    events.append(dict(base, choices=[], usage={"prompt_tokens": usage.get("input", 11),
                                                "completion_tokens": usage.get("output", 7),
                                                "total_tokens": usage.get("input", 11) + usage.get("output", 7)}))
    out = ["data: %s\n\n" % json.dumps(e) for e in events]
    if not step.get("omit_end"):
        out.append("data: [DONE]\n\n")
    return out


def anthropic_events(step, body):
    usage = step.get("usage", {})

    def ev(name, data):
        return "event: %s\ndata: %s\n\n" % (name, json.dumps(data))

    out = [ev("message_start", {"type": "message_start", "message": {
        "id": "msg_standin", "type": "message", "role": "assistant", "model": body.get("model", ""), "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": usage.get("input", 11), "output_tokens": 1}}})]
    index = 0
    pieces = text_pieces(step, body, anthropic=True)
    if pieces:
        out.append(ev("content_block_start", {"type": "content_block_start", "index": index,
                                              "content_block": {"type": "text", "text": ""}}))
        out.append(ev("ping", {"type": "ping"}))
        for piece in pieces:
            out.append(ev("content_block_delta", {"type": "content_block_delta", "index": index,
                                                  "delta": {"type": "text_delta", "text": piece}}))
        out.append(ev("content_block_stop", {"type": "content_block_stop", "index": index}))
        index += 1
    for i, call in enumerate(step.get("tool_calls", [])):
        out.append(ev("content_block_start", {"type": "content_block_start", "index": index, "content_block": {
            "type": "tool_use", "id": call.get("id", "toolu_%d" % i), "name": call["name"], "input": {}}}))
        for piece in call.get("arguments", []):
            out.append(ev("content_block_delta", {"type": "content_block_delta", "index": index,
                                                  "delta": {"type": "input_json_delta", "partial_json": piece}}))
        out.append(ev("content_block_stop", {"type": "content_block_stop", "index": index}))
        index += 1
    stop = step.get("stop", "tool_use" if step.get("tool_calls") else "end_turn")
    out.append(ev("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                    "usage": {"output_tokens": usage.get("output", 7)}}))
    if not step.get("omit_end"):
        out.append(ev("message_stop", {"type": "message_stop"}))
    return out


def text_pieces(step, body, anthropic):
    pieces = list(step.get("text", []))
    if step.get("echo_tool_result"):
        pieces += ["From the tool: ", first_row(last_tool_result(body, anthropic))]
    return pieces


def first_row(result):
    """The first row of a tool result as "column=value, ..." (the nsys-ai shape), else its first 400 characters."""
    try:
        table = json.loads(result)
        return ", ".join("%s=%s" % (c, v) for c, v in zip(table["columns"], table["rows"][0]))
    except (ValueError, KeyError, IndexError, TypeError):
        return result[:400]


class Handler(http.server.BaseHTTPRequestHandler):
    state = None

    def log_message(self, *args):  # quiet: the tests read the --log file
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length).decode("utf-8", "replace")
        try:
            body = json.loads(raw)
        except ValueError:
            body = {"unparsed": raw}
        anthropic = self.path.endswith("/v1/messages")
        step = self.state.take({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                                "body": body})
        if step is None:
            return self.send_error_body(500, {"error": {"message": "scenario exhausted", "type": "server_error"}})
        time.sleep(step.get("delay_s", 0))
        status = step.get("status", 200)
        if status != 200:
            return self.send_error_body(status, step.get("body", ""), step.get("headers", {}),
                                        step.get("body_repeat", 1), step.get("chunk_delay_s", 0))
        if "raw" in step:
            stream = list(step["raw"])
        else:
            stream = anthropic_events(step, body) if anthropic else openai_events(step, body)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        for k, v in step.get("headers", {}).items():
            self.send_header(k, v)
        self.end_headers()
        try:
            self.write_stream(stream, step)
            time.sleep(step.get("hang_s", 0))
        except (BrokenPipeError, ConnectionResetError):
            pass

    def write_stream(self, stream, step):
        split = step.get("split_bytes", 0)
        delay = step.get("chunk_delay_s", 0)
        data = "".join(stream).encode("utf-8")
        if split:
            pieces = [data[i:i + split] for i in range(0, len(data), split)]
        else:
            pieces = [s.encode("utf-8") for s in stream]
        for piece in pieces:
            self.wfile.write(piece)
            self.wfile.flush()
            if delay:
                time.sleep(delay)

    def send_error_body(self, status, body, headers=None, repeat=1, delay=0):
        data = (body if isinstance(body, str) else json.dumps(body)).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data) * repeat))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        try:
            for _ in range(repeat):
                self.wfile.write(data)
                self.wfile.flush()
                if delay:
                    time.sleep(delay)
        except (BrokenPipeError, ConnectionResetError):
            pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--log", default="")
    args = parser.parse_args()
    with open(args.scenario, encoding="utf-8") as f:
        scenario = json.load(f)
    Handler.state = State(scenario, args.log)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.05)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
