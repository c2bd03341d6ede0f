"""acme_rag: the support assistant of the fictional "Acme Cloud Backup" service.

A deliberately small retrieval-augmented app: `retrieve()` finds the passages of the product
docs that answer a question, `answer()` returns what the app answered.
"""

from acme_rag.app import answer
from acme_rag.retrieval import load_passages, retrieve

__all__ = ["answer", "load_passages", "retrieve"]
