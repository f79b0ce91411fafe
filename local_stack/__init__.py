"""The embedded local stack: an in-process AWS emulator plus the API over HTTP.

``python -m local_stack`` (``make run``) starts moto's server on 127.0.0.1, creates
the tables and queues declared in template.yaml, and serves the API Lambda handler
on http://127.0.0.1:8000 through a stdlib HTTP adapter. No Docker, no AWS account.
"""
