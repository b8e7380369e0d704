"""Malformed and hostile frames over stdio and TCP: garbage, bad headers, huge lengths, byte-by-byte headers, resync
after a bad frame, invalid UTF-8, number and nesting extremes, duplicated keys, batches, and wrong types for every
field of initialize, openProfile, runSkill and exportTrace."""

import json
import os
import time

from harness import (
    BODY_LIMIT,
    HEADER_LIMIT,
    INIT_SKILL_TIMEOUT,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LATENCY_BOUND_S,
    PARSE_ERROR,
    SHIPPED_PROFILE,
    SLOW,
    ReliabilityCase,
    error_code,
    frame,
    request_body,
)

LIST_SKILLS = request_body(1, "nsys/listSkills")


def list_skills_frame(id):
    return frame(request_body(id, "nsys/listSkills"))


class FramesCase(ReliabilityCase):
    def expect_then_serve(self, client, bad_bytes, codes, next_id, server):
        """Sends bad bytes, a line break, then a valid request: an error reply with one of `codes` comes first, and
        the valid request is answered (the session is not silenced). Frames glued to a bad one: see the resync case."""
        client.send_raw(bad_bytes + b"\r\n" + list_skills_frame(next_id))
        reply = client.wait_reply(next_id, LATENCY_BOUND_S * 2)
        self.assertIn("result", reply, f"the valid request after the bad bytes failed: {reply}")
        errors = [m for k, m in list(client.replies.items()) if k == "null"]
        client.replies.pop("null", None)
        self.assertTrue(errors, "no error reply (id null) to the bad bytes")
        self.assertIn(error_code(errors[0]), codes, f"error reply: {errors[0]}")
        self.assert_alive(server)


class MalformedFrames(FramesCase):
    def test_garbage_then_valid_request(self):
        server = self.stdio_server()
        garbage = bytes(range(256)) * 4 + b"\r\n\r\n"
        self.expect_then_serve(server.client, garbage, (PARSE_ERROR, INVALID_REQUEST), 11, server)
        self.assert_healthy(server)

    def test_bad_headers_each_answered_then_served(self):
        server = self.stdio_server()
        bad_headers = [
            b"Content-Length: abc\r\n\r\n{}",
            b"Content-Length: -5\r\n\r\n",
            b"Content-Length: 1 2\r\n\r\n{}",
            b"Content-Type: application/json\r\n\r\n{}",
            b"Content-Length: 2\r\nContent-Type: application/json; charset=latin1\r\n\r\n{}",
            b"no colon here\r\n\r\n",
            b"Content-Length: " + b"9" * 40 + b"\r\n\r\n",
            b"X-Filler: " + b"a" * (HEADER_LIMIT + 100) + b"\r\n\r\n",
        ]
        for n, bad in enumerate(bad_headers):
            with self.subTest(header=bad[:60]):
                self.expect_then_serve(server.client, bad, (PARSE_ERROR, INVALID_REQUEST), 100 + n, server)
        self.assert_healthy(server)

    def test_body_over_limit_is_refused_and_skipped(self):
        server = self.tcp_server()
        client = server.connect_initialized()
        size = BODY_LIMIT + 1024
        client.send_raw(b"Content-Length: %d\r\n\r\n" % size)
        # The refusal comes with the header (before the body), as -32600 naming the limit.
        reply = client.wait_reply(None, LATENCY_BOUND_S * 2)
        self.assertEqual(error_code(reply), INVALID_REQUEST, f"reply to a {size}-byte body: {reply}")
        client.send_raw(b" " * size, timeout=30)
        client.send_raw(list_skills_frame(7))
        self.assertIn("result", client.wait_reply(7, LATENCY_BOUND_S * 4))
        self.assert_healthy(server)

    def test_huge_content_length_values(self):
        server = self.tcp_server()
        for value in (b"18446744073709551616", b"9223372036854775807", b"99999999999999999999999999999999"):
            with self.subTest(length=value):
                client = server.connect_initialized()
                client.send_raw(b"Content-Length: " + value + b"\r\n\r\n")
                reply = client.wait_reply(None, LATENCY_BOUND_S * 2)
                self.assertIn(error_code(reply), (PARSE_ERROR, INVALID_REQUEST), f"reply: {reply}")
                client.close()
                self.assert_healthy(server)

    def test_header_split_byte_by_byte(self):
        server = self.stdio_server()
        data = list_skills_frame(21)
        for i in range(len(data)):
            server.client.send_raw(data[i : i + 1])
            time.sleep(0.002)
        self.assertIn("result", server.client.wait_reply(21, LATENCY_BOUND_S))
        self.assert_healthy(server)

    def test_resync_on_back_to_back_frames_after_a_bad_one(self):
        # One bad frame followed, in the same write, by valid frames: every valid one must be answered.
        server = self.stdio_server()
        bad = b"Content-Length: x\r\n\r\n{}"
        server.client.send_raw(bad + list_skills_frame(31) + list_skills_frame(32))
        for id in (31, 32):
            self.assertIn("result", server.client.wait_reply(id, LATENCY_BOUND_S), f"request {id} after a bad frame")
        # And after a body that is not JSON, with the next header glued to its end.
        server.client.send_raw(frame(b"{not json") + list_skills_frame(33))
        self.assertIn("result", server.client.wait_reply(33, LATENCY_BOUND_S))
        self.assert_healthy(server)

    def test_invalid_utf8_body(self):
        server = self.stdio_server()
        body = b'{"jsonrpc":"2.0","id":41,"method":"nsys/listSkills","params":{"x":"\xff\xfe\xc3"}}'
        server.client.send_raw(frame(body))
        reply = server.client.wait_reply(None, LATENCY_BOUND_S)
        self.assertEqual(error_code(reply), PARSE_ERROR, f"reply: {reply}")
        self.assert_healthy(server)


class NumberAndNestingExtremes(FramesCase):
    def check_parse_error(self, server, client, body):
        client.send_raw(frame(body))
        reply = client.wait_reply(None, LATENCY_BOUND_S * 2)
        self.assertEqual(error_code(reply), PARSE_ERROR, f"reply to {body[:80]!r}: {reply}")
        self.assert_alive(server)

    def test_1e400_in_id_before_initialize_stdio(self):
        # This used to abort serve --stdio (exit 134).
        server = self.stdio_server(initialize=False)
        self.check_parse_error(server, server.client, b'{"jsonrpc":"2.0","id":1e400,"method":"initialize","params":{}}')
        server.initialize()
        self.assert_healthy(server)

    def test_huge_numbers_in_params_stdio(self):
        for body in (
            b'{"jsonrpc":"2.0","id":2,"method":"nsys/listSkills","params":{"x":1e400}}',
            b'{"jsonrpc":"2.0","id":3,"method":"nsys/listSkills","params":{"x":-1e400}}',
            b'{"jsonrpc":"2.0","id":4,"method":"nsys/openProfile","params":{"path":"a","n":[1,2,1E+99999]}}',
        ):
            with self.subTest(body=body):
                server = self.stdio_server()  # each its own: one crash must not hide the next body's outcome
                self.check_parse_error(server, server.client, body)
                self.assert_healthy(server)

    def test_1e400_over_tcp_leaves_other_sessions_alive(self):
        # Over TCP it used to end the whole server and every other client's session.
        server = self.tcp_server()
        bystander = server.connect_initialized()
        attacker = server.connect_initialized()
        self.check_parse_error(server, attacker, b'{"jsonrpc":"2.0","id":1e400,"method":"nsys/listSkills"}')
        self.check_parse_error(server, attacker, b'{"jsonrpc":"2.0","id":5,"method":"x","params":[-1e400]}')
        self.assert_healthy(server, bystander)
        self.assert_healthy(server)

    def test_deep_nesting(self):
        server = self.stdio_server()
        depth = 100_000
        cases = (
            (None, b"[" * depth + b"]" * depth),
            (51, b'{"jsonrpc":"2.0","id":51,"method":"nsys/listSkills","params":' + b'{"a":' * depth + b"1" + b"}" * depth + b"}"),
            (52, b'{"jsonrpc":"2.0","id":52,"method":"nsys/listSkills","params":{"a":' + b"[" * depth + b"]" * depth + b"}}"),
            (None, b"[" * depth),  # unterminated
        )
        for id, body in cases:
            with self.subTest(body=body[:40]):
                server.client.send_raw(frame(body))
                # A depth limit may refuse the message before its id is read: then the reply's id is null.
                reply = server.client.wait_any([id, None], LATENCY_BOUND_S * 3)
                # Any answer but a crash: an error (parse, invalid request or params) or a result (params ignored).
                self.assertNotEqual(error_code(reply), INTERNAL_ERROR, f"reply: {reply}")
                self.assert_alive(server)
        self.assert_healthy(server)

    def test_duplicated_method_key_is_refused(self):
        # A duplicated "method" used to take the last value silently.
        server = self.stdio_server()
        body = b'{"jsonrpc":"2.0","id":61,"method":"shutdown","method":"nsys/listSkills"}'
        server.client.send_raw(frame(body))
        reply = server.client.wait_reply(61, LATENCY_BOUND_S)
        self.assert_error(reply, INVALID_REQUEST, "duplicate")
        self.assert_healthy(server)  # and it did not shut down

    def test_batches_are_refused(self):
        server = self.stdio_server()
        for body in (
            json.dumps([request_body(71, "nsys/listSkills"), request_body(72, "nsys/listSkills")]),
            "[]",
            json.dumps([request_body(73, "nsys/listSkills")] * 1000),
        ):
            with self.subTest(body=body[:40]):
                server.client.send_raw(frame(body))
                reply = server.client.wait_reply(None, LATENCY_BOUND_S)
                self.assertEqual(error_code(reply), INVALID_REQUEST, f"reply: {reply}")
        self.assertFalse(any(k in server.client.replies for k in ("71", "72", "73")), "a batch member was run")
        self.assert_healthy(server)


# Values of the wrong JSON type for a field of the given type; numbers at the edges for integer fields.
WRONG = {
    "string": [1, 1.5, True, [], {}, ["a"]],
    "bool": ["true", 1, [], {}],
    "int": ["1", True, [], {}, 1.5, 1e300, 2**64, -(2**63) - 1],
    "number": ["1", True, [], {}],
    "object": ["x", 1, True, []],
    "array_of_string": ["x", 1, {}, [1], [None], [[]]],
    "array_of_int": ["x", 1, {}, ["a"], [1.5], [2**64], [None]],
}


class WrongTypes(FramesCase):
    def check_fields(self, server, method, valid_params, fields, codes=(INVALID_PARAMS, INVALID_REQUEST), fresh=None):
        """For each (json path, type), sends `valid_params` with that field replaced by each wrong value: the reply
        is one of `codes`, never an internal error, never silence. `fresh()` gives a new server when a wrong value
        was accepted and changed the session (an accepted initialize)."""
        for path, kind in fields:
            for value in WRONG[kind]:
                params = json.loads(json.dumps(valid_params))
                node = params
                keys = path.split(".")
                for key in keys[:-1]:
                    node = node.setdefault(key, {})
                node[keys[-1]] = value
                with self.subTest(method=method, field=path, value=value):
                    reply = server.client.request(method, params, timeout=LATENCY_BOUND_S * 3)
                    if "result" in reply and fresh:
                        server = fresh()
                    self.assertIn("error", reply, f"{method} accepted {path} = {value!r}: {str(reply)[:300]}")
                    self.assertIn(error_code(reply), codes, f"{path} = {value!r}: {reply}")
                    self.assert_alive(server)
        return server

    def test_initialize_fields(self):
        server = self.stdio_server(initialize=False)
        valid = {"processId": 1, "clientInfo": {"name": "x"}, "capabilities": {}, "initializationOptions": {}}
        server = self.check_fields(
            server,
            "initialize",
            valid,
            [
                ("processId", "int"),
                ("clientInfo", "object"),
                ("clientInfo.name", "string"),
                ("capabilities", "object"),
                ("capabilities.window.workDoneProgress", "bool"),
                ("initializationOptions", "object"),
                ("initializationOptions.noCache", "bool"),
                ("initializationOptions.skillDirs", "array_of_string"),
                ("initializationOptions.logLevel", "string"),
                ("initializationOptions.perfettoOrigin", "string"),
                (f"initializationOptions.{INIT_SKILL_TIMEOUT}", "number"),
            ],
            codes=(INVALID_PARAMS,),  # -32600 would be "initialize may be sent only once": an earlier one was taken
            fresh=lambda: self.stdio_server(initialize=False),
        )
        server.initialize()  # every refused initialize left the session free to retry
        self.assert_healthy(server)

    def test_open_job_export_fields(self):
        server = self.stdio_server()
        profile = self.sandbox.copy(SHIPPED_PROFILE)
        self.fixtures.add(profile)
        self.check_fields(server, "nsys/openProfile", {"path": profile}, [("path", "string"), ("noCache", "bool")])
        opened = server.client.result("nsys/openProfile", {"path": profile}, timeout=60)
        pid = opened["profileId"]
        self.check_fields(
            server,
            "nsys/runSkill",
            {"profileId": pid, "skill": "top_kernels", "args": {"limit": 1}},
            [("profileId", "string"), ("skill", "string"), ("args", "object"), ("args.limit", "int"),
             ("args.device", "int"), ("args.start", "number"), ("args.clock", "string")],
        )
        out = self.sandbox.path("work", "out.pftrace")
        self.check_fields(
            server,
            "nsys/exportTrace",
            {"profileId": pid, "output": out},
            [("profileId", "string"), ("window", "object"), ("window.start", "number"), ("window.clock", "string"),
             ("devices", "array_of_int"), ("pids", "array_of_int"), ("minDurationNs", "int"), ("gzip", "bool"),
             ("output", "string")],
        )
        self.assertFalse(os.path.exists(out), "an exportTrace with a wrong-typed field wrote its output")
        self.assert_healthy(server)


class McpFrames(FramesCase):
    """`nsys-ai mcp` reads one JSON message per line: the same hostile bodies must give -32700, not -32603."""

    def test_mcp_hostile_lines(self):
        server = self.mcp_server()
        client = server.client
        for line in (
            b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
            b'{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":-1e400}}',
            b"\xff\xfe not json",
            b"[" * 100_000 + b"]" * 100_000,
        ):
            with self.subTest(line=line[:40]):
                client.send_raw(line + b"\n")
                reply = client.wait_any([None, 7], LATENCY_BOUND_S * 2)
                # Deep nesting may be refused by a depth limit (-32700) or as a batch (-32600).
                codes = (PARSE_ERROR, INVALID_REQUEST) if line.startswith(b"[") else (PARSE_ERROR,)
                self.assertIn(error_code(reply), codes, f"reply: {reply}")
                self.assert_alive(server)
        client.send_raw(b'{"jsonrpc":"2.0","id":8,"method":"tools/list","method":"ping"}\n')
        reply = client.wait_any([8, None], LATENCY_BOUND_S)
        self.assert_error(reply, INVALID_REQUEST, "duplicate")
        self.assertIn("result", client.request("ping", timeout=LATENCY_BOUND_S))
        self.assert_rss(server)

    def test_mcp_tool_names_consistent(self):
        # open_profile once answered `profileId` while every tool input says `profile_id`; run_skill's schema
        # used a type array where anyOf is portable.
        server = self.mcp_server()
        profile = self.sandbox.copy(SHIPPED_PROFILE)
        self.fixtures.add(profile)
        opened = server.call_tool("open_profile", {"path": profile}, timeout=60)
        text = json.loads(opened["result"]["content"][0]["text"])
        self.assertTrue("profile_id" in text, f"open_profile result keys: {sorted(text)}")
        tools = server.client.result("tools/list", timeout=LATENCY_BOUND_S)["tools"]
        schema = json.dumps(next(t for t in tools if t["name"] == "run_skill")["inputSchema"])
        self.assertNotRegex(schema, r'"type": \[', "run_skill's input schema uses a type array")


class WellTypedExtremes(FramesCase):
    def test_extreme_values_of_the_right_type(self):
        """Numbers of the right type at their extremes, for many skills and exportTrace: a result or -32602 within
        the bound, never an internal error or a crash."""
        server = self.stdio_server()
        profile = self.sandbox.copy(SHIPPED_PROFILE)
        self.fixtures.add(profile)
        pid = server.client.result("nsys/openProfile", {"path": profile}, timeout=60)["profileId"]
        i64 = 2**63 - 1
        calls = []
        for skill in ("top_kernels", "gpu_idle_gaps", "nvtx_summary", "gpu_utilization", "stream_concurrency"):
            for args in ({"limit": i64}, {"limit": -1}, {"start": -1e308, "end": 1e308}, {"start": 0, "end": 1e-300},
                         {"clock": "capture_ns", "start": -i64 - 1, "end": i64}, {"device": 2**31 - 1},
                         {"device": -1}, {"pid": i64}, {"start": 1e308}):
                calls.append(("nsys/runSkill", {"profileId": pid, "skill": skill, "args": args}))
        out = self.sandbox.path("work", "extremes.pftrace")
        for extra in ({"window": {"start": -1e308, "end": 1e308}},
                      {"window": {"clock": "capture_ns", "start": -i64 - 1, "end": i64}},
                      {"minDurationNs": i64}, {"minDurationNs": -i64 - 1}, {"devices": [2**31 - 1]},
                      {"pids": [i64, -i64 - 1]}, {"window": {"start": 0.5, "end": 0.25}}):
            calls.append(("nsys/exportTrace", dict({"profileId": pid, "output": out}, **extra)))
        for method, params in calls:
            with self.subTest(method=method, params=json.dumps(params)[:120]):
                reply = self.watched_request(server, method, params, 10 * SLOW)
                self.assertIn(error_code(reply), (None, INVALID_PARAMS), f"reply: {str(reply)[:300]}")
        self.assert_healthy(server)
