"""An agent's turn with factledger as its memory, from Python: a value, its change, what was
believed before the change, the context for a question, and the answer recorded with what it cited.

    FACTLEDGER_URL=http://127.0.0.1:3000 FACTLEDGER_API_KEY=flk_… FACTLEDGER_TENANT=acme python3 example.py
"""
import os
import time
from datetime import datetime, timezone

from factledger_client import Client

api = Client(os.environ.get("FACTLEDGER_URL", "http://127.0.0.1:3000"), api_key=os.environ.get("FACTLEDGER_API_KEY"))
tenant = os.environ.get("FACTLEDGER_TENANT", "default")

first = api.assert_memory(tenant, body={"subject": "search-api", "relation": "port", "value": "9200", "text": "The search API listens on port 9200."})
before_change = datetime.now(timezone.utc).isoformat()
time.sleep(0.01)
second = api.assert_memory(tenant, body={"subject": "search-api", "relation": "port", "value": "9300", "text": "The search API listens on port 9300."})
print("write:", second["outcome"])

now = api.get_fact(tenant, subject="search-api", relation="port", min_position=second["position"])
then = api.get_fact(tenant, subject="search-api", relation="port", known_at=before_change)
print("now:", now["value"], "| as known before the change:", then["value"])

question = "Which port does the search API listen on?"
context = api.assemble_context(tenant, body={"query": question, "minPosition": second["position"]})
print("context for the prompt:\n" + context["text"])
cited = [item["memoryId"] for item in context["items"]][:1]
answer = api.record_answer(tenant, body={"question": question, "text": "Port 9300.", "cites": cited})
print("answer recorded:", answer["answerId"])
assert now["value"] == "9300" and then["value"] == "9200" and "9300" in context["text"]
