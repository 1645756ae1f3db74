"""The project's own Pulsar test broker: scripted answers, everything recorded.

Run it with ``python -m pulsar_testkit --scenario S.json --record R.jsonl``.
"""
