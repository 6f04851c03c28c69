"""The Python client against a live factledger server, given by the environment:

    FACTLEDGER_URL          the server, http://127.0.0.1:3000 say
    FACTLEDGER_API_KEY      a key with the read, write and admin scopes on FACTLEDGER_TENANT
    FACTLEDGER_TENANT       the tenant the tests write to
    FACTLEDGER_OTHER_KEY    a read,write key of another tenant, FACTLEDGER_OTHER_TENANT

Without FACTLEDGER_URL the server's tests are skipped (and unittest says so); the transport's own
tests, against a stand-in server in this process, run anyway. Every subject and batch carries a
run id, so the suite can run again against the same server.
"""
import http.server
import inspect
import json
import keyword
import os
import subprocess
import sys
import threading
import unittest
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from factledger_client import (  # noqa: E402
    OPERATIONS,
    Client,
    Conflict,
    FactledgerError,
    Forbidden,
    Gone,
    InvalidInput,
    NotFound,
    Unauthenticated,
    Unavailable,
)

URL = os.environ.get("FACTLEDGER_URL")
RUN = uuid.uuid4().hex[:8]


def env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise AssertionError(f"{name} is not set: the tests against {URL} need it (see this file's docstring)")
    return value


def snake(name: str) -> str:
    # Written here again rather than imported: the test checks the generator's naming, not itself.
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


@unittest.skipUnless(URL, "FACTLEDGER_URL is not set: no server to talk to")
class AgainstTheServer(unittest.TestCase):
    def setUp(self):
        self.tenant = env("FACTLEDGER_TENANT")
        self.api = Client(URL, api_key=env("FACTLEDGER_API_KEY"))

    def test_a_superseded_value_read_as_of_valid_time_and_transaction_time(self):
        subject = f"py-api-{RUN}"
        first = self.api.assert_memory(self.tenant, body={"subject": subject, "relation": "port", "value": "8000", "validFrom": "2024-01-01T00:00:00Z"})
        self.assertEqual(first["outcome"], "created")
        second = self.api.assert_memory(self.tenant, body={"subject": subject, "relation": "port", "value": "8080", "validFrom": "2024-06-01T00:00:00Z"})
        self.assertEqual(second["outcome"], "superseded")

        now = self.api.get_fact(self.tenant, subject=subject, relation="port", min_position=second["position"])
        self.assertEqual(now["value"], "8080")
        old = self.api.get_memory(self.tenant, first["memoryId"], min_position=second["position"])
        self.assertEqual((old["status"], old["supersededBy"]), ("retired", second["memoryId"]))
        # Transaction time: as the ledger knew it when the first value was recorded (the server's clock, not ours).
        self.assertEqual(self.api.get_fact(self.tenant, subject=subject, relation="port", known_at=old["recordedAt"])["value"], "8000")
        # Valid time: what was true in March 2024, as known now.
        self.assertEqual(self.api.get_fact(self.tenant, subject=subject, relation="port", valid_at="2024-03-01T00:00:00Z")["value"], "8000")

        history = self.api.get_history(self.tenant, subject=subject, relation="port", min_position=second["position"])
        self.assertEqual(sorted({entry["value"] for entry in history["entries"]}), ["8000", "8080"])
        listed = [memory["memoryId"] for memory in self.api.list_memories(self.tenant, limit=1000, min_position=second["position"])]
        self.assertIn(second["memoryId"], listed)
        self.assertNotIn(first["memoryId"], listed)
        self.assertEqual([fact["value"] for fact in self.api.get_subject(self.tenant, subject)["facts"]], ["8080"])

    def test_quarantine_and_restore_each_with_its_reason(self):
        written = self.api.assert_memory(self.tenant, body={"text": f"The build cache of run {RUN} lives on cache-01.internal.", "speaker": "tool"})
        held = self.api.quarantine_memory(self.tenant, written["memoryId"], body={"reason": "unverified tool output"})
        self.assertEqual(held["outcome"], "quarantined")
        self.assertEqual(self.api.get_memory(self.tenant, written["memoryId"], min_position=held["position"])["status"], "quarantined")
        quarantined = self.api.list_memories(self.tenant, status="quarantined", limit=1000, min_position=held["position"])
        self.assertIn(written["memoryId"], [memory["memoryId"] for memory in quarantined])

        back = self.api.restore_memory(self.tenant, written["memoryId"], body={"reason": "checked by hand"})
        self.assertEqual(back["outcome"], "restored")
        self.assertEqual(self.api.get_memory(self.tenant, written["memoryId"], min_position=back["position"])["status"], "active")
        history = self.api.get_memory_history(self.tenant, written["memoryId"], min_position=back["position"])
        reasons = [entry["closedBy"]["reason"] for entry in history["entries"] if entry["closedBy"]]
        self.assertEqual(reasons, ["unverified tool output", "checked by hand"])

    def test_a_batch_and_its_rollback(self):
        batch = f"py-review-{RUN}"
        written = self.api.assert_memory(self.tenant, body={"text": f"Run {RUN} deploys from the blue branch.", "speaker": "tool"})
        held = self.api.quarantine_memory(self.tenant, written["memoryId"], body={"batch": batch, "reason": "bulk review"})
        covered = self.api.get_batch(self.tenant, batch, min_position=held["position"])
        self.assertEqual([memory["memoryId"] for memory in covered["memories"]], [written["memoryId"]])
        self.assertEqual(len(covered["events"]), 1)
        rolled = self.api.rollback_batch(self.tenant, batch)
        self.assertEqual(rolled["batch"], batch)
        self.assertEqual(self.api.get_memory(self.tenant, written["memoryId"], min_position=rolled["position"])["status"], "active")

    def test_a_message_in_a_context_out_and_the_answer_recorded(self):
        said = self.api.ingest_message(self.tenant, body={"text": f"Our staging database for project {RUN} runs on db-{RUN}.internal.", "speaker": "user"})
        self.assertEqual(len(said["stored"]), 1)
        self.assertEqual(self.api.get_message(self.tenant, said["messageId"])["stored"], said["stored"])

        question = f"Where does the staging database for project {RUN} run?"
        context = self.api.assemble_context(self.tenant, body={"query": question, "minPosition": said["position"]})
        self.assertIn(f"db-{RUN}.internal", context["text"])
        self.assertIn(said["stored"][0], [item["memoryId"] for item in context["items"]])
        self.assertEqual(self.api.get_trace(self.tenant, context["traceId"])["id"], context["traceId"])

        answer = self.api.record_answer(self.tenant, body={"question": question, "text": f"On db-{RUN}.internal.", "cites": said["stored"]})
        recorded = self.api.get_answer(self.tenant, answer["answerId"], min_position=answer["position"])
        self.assertEqual([c["memoryId"] for c in recorded["citations"]], said["stored"])
        citing = self.api.list_citing_answers(self.tenant, said["stored"][0], min_position=answer["position"])
        self.assertEqual([a["answerId"] for a in citing], [answer["answerId"]])

    def test_a_bad_body_is_invalid_input_naming_the_field(self):
        with self.assertRaises(InvalidInput) as bad:
            self.api.assert_memory(self.tenant, body={"subject": f"py-{RUN}", "relation": "port"})
        self.assertEqual((bad.exception.status, bad.exception.code), (400, "invalid_input"))
        self.assertIn("value", [issue["path"] for issue in bad.exception.issues])
        with self.assertRaises(InvalidInput) as typed:
            self.api.assert_memory(self.tenant, body={"subject": 7, "relation": "port", "value": "1"})
        self.assertEqual([issue["path"] for issue in typed.exception.issues], ["subject"])

    def test_keys_and_tenants(self):
        with self.assertRaises(Unauthenticated) as wrong:
            Client(URL, api_key="flk_not_a_key").list_memories(self.tenant)
        self.assertEqual((wrong.exception.status, wrong.exception.code), (401, "unauthenticated"))
        with self.assertRaises(Unauthenticated):
            Client(URL).list_memories(self.tenant)
        other = Client(URL, api_key=env("FACTLEDGER_OTHER_KEY"))
        # The other key works on its own tenant, and sees nothing of this one: not even that it exists.
        self.assertIsInstance(other.list_memories(env("FACTLEDGER_OTHER_TENANT")), list)
        with self.assertRaises(NotFound) as hidden:
            other.list_memories(self.tenant)
        self.assertEqual((hidden.exception.status, hidden.exception.code), (404, "not_found"))
        with self.assertRaises(Forbidden) as lacking:
            other.rollback_batch(env("FACTLEDGER_OTHER_TENANT"), f"py-{RUN}")
        self.assertEqual((lacking.exception.status, lacking.exception.code), (403, "forbidden"))

    def test_unknown_erased_and_conflicting_memories(self):
        with self.assertRaises(NotFound) as unknown:
            self.api.get_memory(self.tenant, f"no/such?memory-{RUN}")
        self.assertEqual(unknown.exception.code, "unknown_memory")

        written = self.api.assert_memory(self.tenant, body={"text": f"The door code of run {RUN} is 4711.", "speaker": "user"})
        erased = self.api.erase(self.tenant, body={"memoryId": written["memoryId"]})
        self.assertEqual(erased["memoryIds"], [written["memoryId"]])
        with self.assertRaises(Gone) as gone:
            self.api.get_memory(self.tenant, written["memoryId"], min_position=erased["position"])
        self.assertEqual((gone.exception.status, gone.exception.code), (410, "memory_erased"))
        self.assertEqual(gone.exception.body["erased"]["erasureId"], erased["erasureId"])

        subject = f"py-alice-{RUN}"
        self.api.assert_memory(self.tenant, body={"subject": subject, "relation": "speaks", "value": "French", "cardinality": "many"})
        with self.assertRaises(Conflict) as conflict:
            self.api.assert_memory(self.tenant, body={"subject": subject, "relation": "speaks", "value": "German", "cardinality": "one"})
        self.assertEqual((conflict.exception.status, conflict.exception.code), (409, "cardinality_conflict"))

    def test_every_operation_of_the_contract_is_a_method_with_its_parameters(self):
        with open(os.path.join(HERE, "..", "..", "openapi.json"), encoding="utf-8") as f:
            contract = json.load(f)
        operations = {op["operationId"]: op for item in contract["paths"].values() for op in item.values()}
        self.assertEqual(sorted(OPERATIONS), sorted(operations))
        for operation_id, op in operations.items():
            method = getattr(Client, snake(operation_id), None)
            self.assertTrue(callable(method), snake(operation_id))
            params = inspect.signature(method).parameters.values()
            positional = [p.name for p in params if p.kind == p.POSITIONAL_OR_KEYWORD and p.name != "self"]
            keywords = [p.name for p in params if p.kind == p.KEYWORD_ONLY]
            given = op.get("parameters", [])
            self.assertEqual(positional, [snake(p["name"]) for p in given if p["in"] == "path"], operation_id)
            expected = {snake(p["name"]) + ("_" if keyword.iskeyword(p["name"]) or p["name"] in ("self", "body") else "") for p in given if p["in"] == "query"}
            self.assertEqual(set(keywords) - {"body"}, expected, operation_id)
            self.assertEqual("body" in keywords, "requestBody" in op, operation_id)
        self.assertTrue(self.api.get_health()["status"] in ("ok", "unavailable"))
        self.assertEqual(sorted(op["operationId"] for item in self.api.get_open_api()["paths"].values() for op in item.values()), sorted(operations))

    def test_the_example_runs(self):
        done = subprocess.run([sys.executable, os.path.join(HERE, "..", "example.py")], env=dict(os.environ), capture_output=True, text=True, timeout=120)
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("now: 9300 | true in March 2024: 9200 | as known before the change: 9200", done.stdout)


class _StandIn(http.server.BaseHTTPRequestHandler):
    """Answers as the test sets it (status, headers, body), and keeps what it was asked."""

    answer = (200, {}, b"{}")
    seen = []

    def _answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        type(self).seen.append((self.command, self.path, dict(self.headers), self.rfile.read(length) if length else None))
        status, headers, body = type(self).answer
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, *args):
        pass


class TheTransport(unittest.TestCase):
    """What the client sends and how it reads what comes back, against a stand-in server in this process."""

    @classmethod
    def setUpClass(cls):
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _StandIn)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.api = Client(f"http://127.0.0.1:{cls.server.server_address[1]}/", api_key="flk_test")

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()

    def answer(self, status, body, headers=None):
        _StandIn.answer = (status, {"Content-Type": "application/json", **(headers or {})}, body if isinstance(body, bytes) else json.dumps(body).encode())
        _StandIn.seen = []

    def test_sends_the_key_quoted_path_parameters_and_query_values_as_the_server_reads_them(self):
        self.answer(200, {"value": "x"})
        self.assertEqual(self.api.get_fact("acme", subject="a b", relation="port", min_position=3, known_at=None), {"value": "x"})
        self.api.get_memory("acme", "a/b?c")
        self.api.quarantine_memory("acme", "m1")
        (_, fact_path, headers, _), (_, memory_path, _, _), (verb, _, sent, body) = _StandIn.seen
        self.assertEqual(fact_path, "/v1/tenants/acme/facts?subject=a+b&relation=port&minPosition=3")
        self.assertEqual(memory_path, "/v1/tenants/acme/memories/a%2Fb%3Fc")
        self.assertEqual(headers["Authorization"], "Bearer flk_test")
        # An optional body left out is still a JSON object.
        self.assertEqual((verb, body, sent["Content-Type"]), ("POST", b"{}", "application/json"))

    def test_an_error_is_typed_with_its_code_issues_and_retry_after(self):
        self.answer(400, {"error": "invalid_input", "message": "invalid input: value: required", "issues": [{"path": "value", "message": "required"}]})
        with self.assertRaises(InvalidInput) as bad:
            self.api.assert_memory("acme", body={"subject": "a", "relation": "b"})
        self.assertEqual((bad.exception.code, bad.exception.message, bad.exception.issues), ("invalid_input", "invalid input: value: required", [{"path": "value", "message": "required"}]))
        self.answer(503, {"error": "projection_lag", "message": "behind"}, {"Retry-After": "2"})
        with self.assertRaises(Unavailable) as lag:
            self.api.get_memory("acme", "m1", min_position=10)
        self.assertEqual((lag.exception.status, lag.exception.code, lag.exception.retry_after), (503, "projection_lag", 2.0))
        self.answer(418, {"error": "teapot", "message": "short and stout"})
        with self.assertRaises(FactledgerError) as other:
            self.api.get_health()
        self.assertEqual((type(other.exception), other.exception.status, other.exception.code), (FactledgerError, 418, "teapot"))

    def test_an_answer_that_is_not_json_is_a_clear_error(self):
        self.answer(502, b"<html>Bad Gateway</html>", {"Content-Type": "text/html"})
        with self.assertRaises(FactledgerError) as proxy:
            self.api.get_health()
        self.assertEqual((proxy.exception.status, proxy.exception.code, proxy.exception.body), (502, "http_502", None))
        self.assertIn("Bad Gateway", proxy.exception.message)
        self.answer(200, b"<html>a login page</html>", {"Content-Type": "text/html"})
        with self.assertRaises(FactledgerError) as page:
            self.api.get_health()
        self.assertEqual((page.exception.status, page.exception.code), (200, "invalid_response"))

    def test_no_server_is_a_clear_error(self):
        with self.assertRaises(FactledgerError) as nowhere:
            Client("http://127.0.0.1:9", timeout=2).get_health()
        self.assertEqual((nowhere.exception.status, nowhere.exception.code), (0, "unreachable"))


if __name__ == "__main__":
    unittest.main()
