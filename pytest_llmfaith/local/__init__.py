"""The embedded offline judge: a GGUF model served on 127.0.0.1 as an OpenAI-compatible API.
Nothing is imported here: a run with a hosted judge does not pay for the launcher."""
