"""Hostile LLM endpoints and cache files (issue 38, items 1, 2, 7, 8, 10, 12 and 16): replies nested 400,000 deep (under every size
cap) in a tool call of `ask` and in the background paragraph of a kernel explanation, error bodies that never end,
answer-cache entries another program planted, a tool call naming device 2^32 + 1, a model's answer holding HTML, links
and an image, and a paragraph holding a link (items 10 and 12). Over TCP any token holder may bring its own endpoint
(initializationOptions.llm.baseUrl), so one client's endpoint must never stop the server for the others.

The endpoint is the LLM stand-in of tests/llm (standin.py, run in this process on 127.0.0.1), answering each request
with the next step of a script (the stand-in's own step format; `raw` steps are written as they are).
"""

import glob
import http.server
import json
import os
import signal
import sys
import threading
import time

from cases_profiles import live_markup
from harness import SHIPPED_PROFILE, SLOW, SOURCE_DIR, ReliabilityCase, initialize_params

sys.path.insert(0, os.path.join(SOURCE_DIR, "tests", "llm"))
import standin  # noqa: E402  (tests/llm/standin.py: the stand-in LLM provider)

DEPTH = 400_000  # the red team's nesting: 800 KB of brackets
DEEP = "[" * DEPTH + "]" * DEPTH
KERNEL = "vectorized_elementwise_kernel"  # the shipped profile's most launched kernel (a short name)
SIGTERM_BOUND_S = 2.0 * SLOW


def anthropic_raw(*events):
    """A stream of Anthropic events, each (type, data), as the wire writes them."""
    return ["event: %s\ndata: %s\n\n" % (name, data) for name, data in events]


DEEP_TOOL_USE_STREAM = anthropic_raw(
    ("message_start", json.dumps({"type": "message_start", "message": {"usage": {"input_tokens": 5}}})),
    ("content_block_start",
     '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"top_kernels",'
     '"input":{"limit":' + DEEP + '}}}'),
    ("content_block_stop", '{"type":"content_block_stop","index":0}'),
    ("message_delta", '{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":3}}'),
    ("message_stop", '{"type":"message_stop"}'))


class Endpoint:
    """The stand-in on 127.0.0.1 answering every request with `step` (the last one repeats), keeping the requests."""

    def __init__(self, steps):
        self.requests = []
        endpoint = self

        class State(standin.State):
            def take(self, record):
                with self.lock:
                    endpoint.requests.append(record)
                    return steps[min(len(endpoint.requests), len(steps)) - 1]

        handler = type("Handler", (standin.Handler,), {"state": State({}, "")})
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def options(self, provider):
        base = f"http://127.0.0.1:{self.port}" + ("/v1" if provider == "openai" else "")
        return {"llm": {"provider": provider, "model": "m", "baseUrl": base, "apiKey": "sk-case-own-key"}}

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Llm(ReliabilityCase):
    def setUp(self):
        super().setUp()
        self.endpoints = []

    def tearDown(self):
        for endpoint in self.endpoints:
            endpoint.close()
        super().tearDown()

    def endpoint(self, *steps):
        endpoint = Endpoint(list(steps))
        self.endpoints.append(endpoint)
        return endpoint

    def finish(self, server, client=None):
        """Alive, a cheap request within the bound (a fresh client over TCP), and an exit within 2 s of SIGTERM."""
        self.assert_healthy(server, client)
        started = time.monotonic()
        code = server.terminate(signal.SIGTERM, timeout=SIGTERM_BOUND_S + 5)
        self.assertIsNotNone(code, "did not exit after SIGTERM")
        self.assertEqual(code, 0, server.describe_exit())
        self.assertLess(time.monotonic() - started, SIGTERM_BOUND_S)

    def open(self, client):
        return client.result("nsys/openProfile", {"path": SHIPPED_PROFILE}, timeout=60 * SLOW)["profileId"]

    def explain_until_settled(self, client, profile_id, seconds):
        """nsys/explainKernel until its Markdown no longer says the paragraph is being written; the last result."""
        deadline = time.monotonic() + seconds
        while True:
            result = client.result("nsys/explainKernel", {"profileId": profile_id, "kernel": KERNEL},
                                   timeout=30 * SLOW)
            if "being written" not in result["markdown"] or time.monotonic() > deadline:
                return result
            time.sleep(0.2)

    # -- item 1: ask, a tool call nested 400,000 deep, from a client's own endpoint over TCP --
    def test_deep_tool_call_arguments_from_a_clients_endpoint_tcp(self):
        openai = self.endpoint({"tool_calls": [{"id": "c1", "name": "top_kernels", "arguments": ['{"limit":' + DEEP + "}"]}]},
                               {"text": ["The tool call failed."], "stop": "stop"})
        anthropic = self.endpoint({"raw": DEEP_TOOL_USE_STREAM})
        server = self.tcp_server()
        bystander = server.connect_initialized()
        for provider, endpoint in (("openai", openai), ("anthropic", anthropic)):
            with self.subTest(provider=provider):
                client = server.connect_initialized(endpoint.options(provider))
                reply = client.request("nsys/ask", {"profileId": self.open(client),
                                                    "question": f"which kernel is slowest, {provider}?"},
                                       timeout=60 * SLOW)
                self.assertTrue("result" in reply or "error" in reply, reply)
                self.assertTrue(endpoint.requests, "the endpoint was never asked")
                if "error" in reply:
                    self.assertNotIn(DEEP[:1000], json.dumps(reply))
                client.close()
                self.assert_healthy(server, bystander)
        self.finish(server)

    # -- items 10 and 12: a model's text is never markup, and a paragraph with a link is left out --
    def test_a_models_markup_and_links_stay_text(self):
        hostile = "<img src=x onerror=alert(1)> [c](javascript:alert(2)) ![i](http://e.vil/p.png) see www.e.vil"
        answer = self.endpoint({"text": [hostile], "stop": "stop"})
        server = self.tcp_server()
        client = server.connect_initialized(answer.options("openai"))
        reply = client.result("nsys/ask", {"profileId": self.open(client), "question": "what should I fix first?"},
                              timeout=60 * SLOW)
        markdown = reply["answer"]["markdown"]
        self.assertEqual(live_markup(markdown), [], markdown[:500])
        self.assertIn("`http://e.vil/p.png)`", markdown, "the image's URL is not in a code span (no renderer links one)")
        client.close()
        paragraph = self.endpoint({"text": ["A plain elementwise kernel: see www.e.vil for more."], "stop": "end_turn"})
        client = server.connect_initialized(paragraph.options("anthropic"))
        result = self.explain_until_settled(client, self.open(client), 20 * SLOW)
        self.assertIn("was left out: it holds a link", result["markdown"])
        self.assertNotIn("www.e.vil", result["markdown"])
        self.finish(server, client)

    # -- item 16: a tool call's device past 32 bits --
    def test_a_device_past_32_bits_is_refused(self):
        endpoint = self.endpoint({"tool_calls": [{"id": "c1", "name": "top_kernels", "arguments": ['{"device": 4294967297}']}]},
                                 {"text": ["Done."], "stop": "stop"})
        server = self.tcp_server()
        client = server.connect_initialized(endpoint.options("openai"))
        reply = client.request("nsys/ask", {"profileId": self.open(client), "question": "top kernels on that GPU?"},
                               timeout=60 * SLOW)
        self.assertIn("result", reply, reply)
        self.assertEqual(len(endpoint.requests), 2, "the tool's result was not sent back")
        # What the model was told: the refusal, not a table of device 1 (4294967297 cast to 32 bits).
        told = json.dumps(endpoint.requests[1]["body"]["messages"][-1])
        self.assertIn("argument 'device' of 'top_kernels' is out of range", told)
        self.finish(server, client)

    # -- item 2: the hover's background paragraph, answered with a tool_use block nested 400,000 deep --
    def test_deep_tool_use_in_the_paragraph_reply_stdio(self):
        endpoint = self.endpoint({"raw": DEEP_TOOL_USE_STREAM})
        server = self.stdio_server(initialize=False)
        server.client.result("initialize", initialize_params(options=endpoint.options("anthropic")), timeout=30 * SLOW)
        server.client.notify("initialized", {})
        profile_id = self.open(server.client)
        result = self.explain_until_settled(server.client, profile_id, 20 * SLOW)
        self.assertTrue(endpoint.requests, "the paragraph was never requested")
        self.assertNotIn("being written", result["markdown"])
        self.finish(server)

    # -- item 8: an error body that never ends --
    def test_an_endless_error_body_ends_the_request(self):
        endpoint = self.endpoint({"status": 400, "body": "e" * 8192, "body_repeat": 100_000, "chunk_delay_s": 0.01})
        server = self.tcp_server()
        client = server.connect_initialized(endpoint.options("openai"))
        started = time.monotonic()
        reply = client.request("nsys/ask", {"profileId": self.open(client), "question": "which kernel is slowest?"},
                               timeout=120 * SLOW)
        took = time.monotonic() - started
        self.assertLess(took, 15 * SLOW, f"the ask took {took:.1f} s: the error body was read on")
        self.assertIn("HTTP 400", json.dumps(reply))
        self.finish(server, client)

    # -- item 7: an llm-explain cache entry planted or damaged between two servers --
    def test_a_planted_explain_cache_entry_is_a_miss(self):
        endpoint = self.endpoint({"text": ["It adds tensors element by element."], "stop": "end_turn"})
        options = endpoint.options("anthropic")

        def serve():
            server = self.stdio_server(initialize=False)
            server.client.result("initialize", initialize_params(options=options), timeout=30 * SLOW)
            server.client.notify("initialized", {})
            return server, self.open(server.client)

        server, profile_id = serve()
        first = self.explain_until_settled(server.client, profile_id, 20 * SLOW)
        self.assertIn("element by element", first["markdown"])
        self.finish(server)
        entries = glob.glob(os.path.join(self.sandbox.path(), "**", "llm-explain", "*.json"), recursive=True)
        self.assertEqual(len(entries), 1, entries)
        asked = len(endpoint.requests)
        planted = {
            "nested 400,000 deep": '{"text":"t","tool_calls":[{"id":"c","name":"n","arguments":{"a":' + DEEP + "}}]}",
            "a member of another type": '{"text":"t","tool_calls":[{"id":5,"name":["n"],"arguments":"x"}]}',
            "2 MiB": '{"text":"' + "x" * (2 << 20) + '","tool_calls":[]}',
        }
        for what, text in planted.items():
            with self.subTest(entry=what):
                with open(entries[0], "w", encoding="utf-8") as f:
                    f.write(text)
                server, profile_id = serve()
                result = self.explain_until_settled(server.client, profile_id, 20 * SLOW)
                self.assertIn(KERNEL, result["markdown"])
                self.assertIn("element by element", result["markdown"], "the planted entry was not a miss")
                self.finish(server)
        self.assertEqual(len(endpoint.requests), asked + len(planted), "each planted entry is asked again")
