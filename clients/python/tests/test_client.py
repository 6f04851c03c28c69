"""The Python client against a live factledger server: FACTLEDGER_URL, FACTLEDGER_API_KEY (read,
write and admin on FACTLEDGER_TENANT), FACTLEDGER_OTHER_KEY (another tenant's). Skipped without them."""
import json
import os
import subprocess
import sys
import time
import unittest
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from factledger_client import OPERATIONS, Client, FactledgerError, Forbidden, InvalidInput, NotFound, Unauthenticated  # noqa: E402
from factledger_client._client import Conflict  # noqa: E402

URL = os.environ.get("FACTLEDGER_URL")
TENANT = os.environ.get("FACTLEDGER_TENANT", "acme")


@unittest.skipUnless(URL, "FACTLEDGER_URL is not set: no server to talk to")
class ClientAgainstTheServer(unittest.TestCase):
    def setUp(self):
        self.api = Client(URL, api_key=os.environ["FACTLEDGER_API_KEY"])

    def test_supersedes_and_reads_as_of_two_transaction_times(self):
        first = self.api.assert_memory(TENANT, body={"subject": "py-api", "relation": "port", "value": "8000"})
        self.assertEqual(first["outcome"], "created")
        before = datetime.now(timezone.utc).isoformat()
        time.sleep(0.01)
        second = self.api.assert_memory(TENANT, body={"subject": "py-api", "relation": "port", "value": "8080"})
        self.assertEqual(second["outcome"], "superseded")
        self.assertEqual(self.api.get_fact(TENANT, subject="py-api", relation="port", min_position=second["position"])["value"], "8080")
        self.assertEqual(self.api.get_fact(TENANT, subject="py-api", relation="port", known_at=before)["value"], "8000")
        values = sorted({e["value"] for e in self.api.get_history(TENANT, subject="py-api", relation="port")["entries"]})
        self.assertEqual(values, ["8000", "8080"])
        listed = [m["memoryId"] for m in self.api.list_memories(TENANT, min_position=second["position"])]
        self.assertIn(second["memoryId"], listed)
        self.assertNotIn(first["memoryId"], listed)

    def test_quarantine_under_a_batch_and_its_rollback(self):
        written = self.api.assert_memory(TENANT, body={"text": "The build cache lives on cache-01.internal.", "speaker": "tool"})
        hidden = self.api.quarantine_memory(TENANT, written["memoryId"], body={"batch": "py-review", "reason": "unverified"})
        self.assertEqual(self.api.get_memory(TENANT, written["memoryId"], min_position=hidden["position"])["status"], "quarantined")
        self.assertEqual(len(self.api.get_batch(TENANT, "py-review")["events"]), 1)
        rolled = self.api.rollback_batch(TENANT, "py-review", body={})
        self.assertEqual(self.api.get_memory(TENANT, written["memoryId"], min_position=rolled["position"])["status"], "active")

    def test_a_message_in_and_a_context_out(self):
        said = self.api.ingest_message(TENANT, body={"text": "Our staging database runs on db-07.internal.", "speaker": "user"})
        self.assertEqual(len(said["stored"]), 1)
        context = self.api.assemble_context(TENANT, body={"query": "Where does the staging database run?", "minPosition": said["position"]})
        self.assertIn("db-07.internal", context["text"])
        answer = self.api.record_answer(TENANT, body={"question": "Where?", "text": "On db-07.internal.", "cites": [context["items"][0]["memoryId"]]})
        self.assertEqual(self.api.get_answer(TENANT, answer["answerId"])["answerId"], answer["answerId"])

    def test_typed_errors(self):
        with self.assertRaises(InvalidInput) as bad:
            self.api.assert_memory(TENANT, body={"subject": "x", "relation": "y"})
        self.assertEqual((bad.exception.status, bad.exception.code), (400, "invalid_input"))
        self.assertTrue(bad.exception.issues and all("path" in i for i in bad.exception.issues))
        with self.assertRaises(NotFound) as unknown:
            self.api.get_memory(TENANT, "no-such-memory")
        self.assertEqual(unknown.exception.code, "unknown_memory")
        with self.assertRaises(Unauthenticated):
            Client(URL, api_key="not-a-key").list_memories(TENANT)
        with self.assertRaises(NotFound) as hidden:
            Client(URL, api_key=os.environ["FACTLEDGER_OTHER_KEY"]).list_memories(TENANT)
        self.assertEqual(hidden.exception.code, "not_found")
        self.api.assert_memory(TENANT, body={"subject": "py-alice", "relation": "speaks", "value": "French", "cardinality": "many"})
        with self.assertRaises(Conflict):
            self.api.assert_memory(TENANT, body={"subject": "py-alice", "relation": "speaks", "value": "German", "cardinality": "one"})
        with self.assertRaises(FactledgerError) as nowhere:
            Client("http://127.0.0.1:9", timeout=2).get_health()
        self.assertEqual(nowhere.exception.status, 0)
        self.assertTrue(issubclass(Forbidden, FactledgerError))

    def test_every_operation_of_the_contract_is_a_method(self):
        with open(os.path.join(HERE, "..", "..", "openapi.json"), encoding="utf-8") as f:
            contract = json.load(f)
        ids = sorted(op["operationId"] for item in contract["paths"].values() for op in item.values())
        self.assertEqual(sorted(OPERATIONS), ids)
        for operation_id in ids:
            name = "".join("_" + c.lower() if c.isupper() else c for c in operation_id)
            self.assertTrue(callable(getattr(Client, name, None)), name)

    def test_the_example_runs(self):
        env = dict(os.environ)
        done = subprocess.run([sys.executable, os.path.join(HERE, "..", "example.py")], env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("now: 9300 | as known before the change: 9200", done.stdout)


if __name__ == "__main__":
    unittest.main()
