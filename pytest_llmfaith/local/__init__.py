"""The embedded offline judge: a GGUF model served on 127.0.0.1 as an OpenAI-compatible API.

Importing this package never imports llama_cpp or litellm; the judge core reaches it only
through port.py. Nothing is imported here: a run with a hosted judge that plugs the port in
does not pay for the launcher.
"""
