"""An agent's turn with factledger as its memory, from Python: a value and its change, read as of
two moments (valid time: what was true then; transaction time: what was known then), the context
for a question, and the answer recorded with the memory it cited.

    FACTLEDGER_URL=http://127.0.0.1:3000 FACTLEDGER_API_KEY=flk_… FACTLEDGER_TENANT=acme python3 example.py

It can run again: the same assertions are duplicates the second time, and the reads stay the same.
"""
import os

from factledger_client import Client

api = Client(os.environ.get("FACTLEDGER_URL", "http://127.0.0.1:3000"), api_key=os.environ.get("FACTLEDGER_API_KEY"))
tenant = os.environ.get("FACTLEDGER_TENANT", "default")
key = {"subject": "search-api", "relation": "port"}

# The port was 9200 from January 2024; in June it moved to 9300, and the agent learns it now.
first = api.assert_memory(tenant, body={**key, "value": "9200", "validFrom": "2024-01-01T00:00:00Z", "text": "The search API listens on port 9200."})
second = api.assert_memory(tenant, body={**key, "value": "9300", "validFrom": "2024-06-01T00:00:00Z", "text": "The search API listens on port 9300."})
print("writes:", first["outcome"], "then", second["outcome"])

# min_position: read no older state than the write's own (the read models catch up asynchronously).
after = second["position"]
now = api.get_fact(tenant, **key, min_position=after)
in_march = api.get_fact(tenant, **key, valid_at="2024-03-01T00:00:00Z", min_position=after)
# Transaction time by the server's clock: the moment the first value was recorded.
recorded = api.get_memory(tenant, first["memoryId"], min_position=after)["recordedAt"]
before_change = api.get_fact(tenant, **key, known_at=recorded, min_position=after)
print("now:", now["value"], "| true in March 2024:", in_march["value"], "| as known before the change:", before_change["value"])

question = "Which port does the search API listen on?"
context = api.assemble_context(tenant, body={"query": question, "minPosition": second["position"]})
print("context for the prompt:\n" + context["text"])

cited = [item["memoryId"] for item in context["items"] if "9300" in item["text"]]
answer = api.record_answer(tenant, body={"question": question, "text": "Port 9300.", "cites": cited})
recorded_answer = api.get_answer(tenant, answer["answerId"], min_position=answer["position"])
print("answer recorded:", answer["answerId"], "citing", [citation["text"] for citation in recorded_answer["citations"]])

assert (now["value"], in_march["value"], before_change["value"]) == ("9300", "9200", "9200")
assert cited, "the context should hold the current port"
