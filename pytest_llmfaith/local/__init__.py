"""The embedded offline judge: a GGUF model served on 127.0.0.1 as an OpenAI-compatible API.

Importing this package never imports llama_cpp or litellm; the judge core never imports it: the
wiring hands a judge of a local model its OfflineBackend. Nothing is imported here: a run with a
hosted judge does not pay for the launcher.
"""
