"""The offline judge's engine, in the server process: chat requests answered by llama.cpp.

A label is one forward pass read as next-token logprobs; claims are generated greedily without
the grammar first (it checks the whole vocabulary at every step) and again under it only when the answer
does not fit the schema. A cached prefix is reused only on a REUSE_GRID boundary, because
llama.cpp's results depend on where a batch starts (docs/offline-judge.md).
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from collections.abc import Generator

    from llama_cpp import Llama
    from llama_cpp.llama_types import ChatCompletionRequestMessage, CreateChatCompletionStreamResponse

TOP_LOGPROBS_MAX = 20
REUSE_GRID = 16  # a reused prefix is a multiple of this many tokens (of the kernels' row groups)
LOOP_REPEATS = 3  # an answer ending with one span this many times over is in a greedy loop
LOOP_SPAN = (8, 400)  # the span's length in characters, shortest and longest
KEPT_PREFIXES = 4  # prompt prefixes (a context's passages) the label context keeps aside
KEPT_BYTES = 256 * 2**20  # and their KV entries' bytes at most (about 9,000 tokens of this model)


class RepetitionError(ValueError):
    """A greedy answer stuck in a loop that could not be cut to a whole JSON answer."""


class LlamaEngine:
    """One GGUF model behind a callable taking llama_cpp `create_chat_completion` kwargs."""

    def __init__(self, path: Path, n_ctx: int, n_threads: int) -> None:
        from llama_cpp import Llama
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        self._common: dict[str, Any] = {"model_path": str(path), "n_threads": n_threads, "n_threads_batch": n_threads,
                        "verbose": False}
        self._n_ctx = n_ctx
        # Labels: logits of the last prompt token only (logits_all would compute the 150k-wide
        # output layer for every prompt token).
        self.reader: Llama = Llama(n_ctx=n_ctx, **self._common)
        self._reading = PromptReader(self.reader, keep=KEPT_PREFIXES)
        self._writing: PromptReader | None = None
        model = self.reader._model
        template = self.reader.metadata.get("tokenizer.chat_template")
        self._format = Jinja2ChatFormatter(
            template=template, eos_token=model.token_get_text(self.reader.token_eos()),
            bos_token=model.token_get_text(self.reader.token_bos()),
        ) if template else None

    def __call__(self, kwargs: dict[str, Any]) -> dict[str, Any]:
        if kwargs.get("logprobs"):
            if kwargs.get("max_tokens") != 1:
                raise ValueError("logprobs are served for one-token answers only: send max_tokens=1")
            return self.label(kwargs["messages"], int(kwargs.get("top_logprobs") or 5))
        kwargs = {k: v for k, v in kwargs.items() if k not in ("logprobs", "top_logprobs")}
        schema = (kwargs.get("response_format") or {}).get("schema")
        if isinstance(schema, dict) and not kwargs.get("temperature"):
            free = self._json_without_grammar(kwargs, schema)
            if free is not None:
                return free
        self._prime_writer(kwargs["messages"])
        return dict(cast("dict[str, Any]", self.writer().create_chat_completion(**kwargs)))  # not streamed

    def _json_without_grammar(self, kwargs: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any] | None:
        """The greedy answer generated freely, if it is one JSON object fitting `schema`; else None
        (given up at the first token that is not `{`, so a miss costs about one token)."""
        free = {k: v for k, v in kwargs.items() if k != "response_format"}
        self._prime_writer(kwargs["messages"])
        chunks = cast("Generator[CreateChatCompletionStreamResponse, None, None]",
                      self.writer().create_chat_completion(**free, stream=True))
        text, pieces = "", 0
        try:
            for chunk in chunks:
                piece = str(chunk["choices"][0]["delta"].get("content") or "")
                pieces += bool(piece)
                text += piece
                head = text.lstrip()
                if head and not head.startswith("{"):
                    return None
                start = loop_start(head) if piece else None
                if start is not None:
                    return loop_cut(head, start, schema, len(self._tokens(kwargs["messages"])), pieces)
                if "}" not in piece:
                    continue
                try:
                    value, end = json.JSONDecoder().raw_decode(head)
                except ValueError:
                    continue
                if not fits(value, schema, schema):
                    return None
                prompt = len(self._tokens(kwargs["messages"]))
                return chat_completion(f"json-{time.time_ns()}", head[:end], "stop", prompt, pieces)
        finally:
            chunks.close()
        return None

    def _tokens(self, messages: list[dict[str, str]]) -> list[int]:
        if self._format is None:
            raise ValueError("this GGUF file has no chat template; the offline judge needs one")
        prompt = self._format(messages=cast("list[ChatCompletionRequestMessage]", messages))
        return self.reader.tokenize(prompt.prompt.encode(), add_bos=not prompt.added_special, special=True)

    def writer(self) -> Llama:
        """The generating context (see _writer_context)."""
        return self._writer_context().llm

    def _writer_context(self) -> PromptReader:
        """Made on the first generation (a label-only run never needs it); the weights are
        memory-mapped once for both contexts."""
        if self._writing is None:
            from llama_cpp import Llama

            self._writing = PromptReader(Llama(n_ctx=min(self._n_ctx, 4096), **self._common))
        return self._writing

    def _prime_writer(self, messages: list[dict[str, str]]) -> None:
        """Read all but the prompt's last token the canonical way: llama_cpp's generate then
        finds them cached and reads only that last token before it samples."""
        tokens = self._tokens(messages)
        self._writer_context().read(tokens, len(tokens) - 1)

    def label(self, messages: list[dict[str, str]], top: int) -> dict[str, Any]:
        """The next token's `top` most likely tokens, as an OpenAI chat completion with logprobs."""
        import numpy as np

        llm = self.reader
        tokens = self._tokens(messages)
        if len(tokens) >= llm.n_ctx():
            raise ValueError(f"Requested tokens ({len(tokens)}) exceed context window of {llm.n_ctx()}")
        reuse = self._reading.read(tokens, len(tokens))
        raw = llm._ctx.get_logits()  # type: ignore[no-untyped-call]  # llama_cpp leaves it unannotated
        logits = np.ctypeslib.as_array(raw, shape=(llm.n_vocab(),)).astype(np.float64)
        logits -= logits.max()
        logprobs = logits - math.log(float(np.exp(logits).sum()))
        best = np.argsort(-logprobs)[: max(1, min(top, TOP_LOGPROBS_MAX))]
        return label_completion([(_piece(llm, int(t)), float(logprobs[t])) for t in best], len(tokens),
                                len(tokens) - reuse)


def chat_completion(answer_id: str, content: str, finish: str, prompt_tokens: int,
                    completion_tokens: int) -> dict[str, Any]:
    """A generated answer as an OpenAI chat completion (both engines answer with these)."""
    return {
        "id": answer_id, "object": "chat.completion", "created": int(time.time()),
        "choices": [{"index": 0, "finish_reason": finish, "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def label_completion(top: list[tuple[str, float]], prompt_tokens: int, prompt_tokens_read: int) -> dict[str, Any]:
    """A label, the next token's most likely tokens (`top`: text and logprob, most likely first), as
    an OpenAI chat completion with logprobs answering the first; `prompt_tokens_read` those not
    taken from a cache."""
    entries = [{"token": token, "logprob": logprob, "bytes": None} for token, logprob in top]
    return {
        "id": f"label-{time.time_ns()}", "object": "chat.completion", "created": int(time.time()),
        "choices": [{
            "index": 0, "finish_reason": "length",
            "message": {"role": "assistant", "content": entries[0]["token"]},
            "logprobs": {"content": [{**entries[0], "top_logprobs": entries}]},
        }],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": 1, "total_tokens": prompt_tokens + 1,
                  "prompt_tokens_read": prompt_tokens_read},
    }


def loop_cut(head: str, start: int, schema: dict[str, Any], prompt_tokens: int, pieces: int) -> dict[str, Any]:
    """A greedy answer that began to repeat itself at `start`, cut before the loop and closed after its
    last whole item; else an error (the grammar's greedy answer would loop the same way, to the
    token limit). Both engines cut a loop so."""
    answer = closed_json(head[:start], schema)
    if answer is None:
        raise RepetitionError(
            f"the offline judge repeated itself after {pieces} tokens (a greedy decoding loop: "
            f"“…{head[start:][:80]}…” over and over) and no whole answer came before it. Fix: a stronger "
            "judge (--llm-judge-model=openai/gpt-4o-mini or any litellm model) or other wording of the output")
    return chat_completion(f"json-loop-cut-{time.time_ns()}", answer, "stop", prompt_tokens, pieces)


def fits(value: Any, schema: dict[str, Any], root: dict[str, Any]) -> bool:
    """Does `value` fit this JSON schema as its grammar would have written it? The subset pydantic
    writes: object (properties in the schema's order, no others, required ones present), array,
    string, number, integer, boolean, null, enum, anyOf, $ref into $defs. Anything it cannot
    tell is "no", which only sends the request to the grammar."""
    if "$ref" in schema:
        ref = schema["$ref"]
        target = root.get("$defs", {}).get(ref.rsplit("/", 1)[-1]) if ref.startswith("#/$defs/") else None
        return isinstance(target, dict) and fits(value, target, root)
    if "anyOf" in schema:
        return any(fits(value, option, root) for option in schema["anyOf"])
    if "enum" in schema and value not in schema["enum"]:
        return False
    kind = schema.get("type")
    if kind == "object":
        properties = list(schema.get("properties", {}))
        return (isinstance(value, dict) and all(k in value for k in schema.get("required", []))
                and list(value) == [k for k in properties if k in value]
                and all(fits(v, schema["properties"][k], root) for k, v in value.items()))
    if kind == "array":
        items = schema.get("items", {})
        return isinstance(value, list) and all(fits(v, items, root) for v in value)
    checks = {"string": lambda v: isinstance(v, str), "boolean": lambda v: isinstance(v, bool),
              "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
              "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
              "null": lambda v: v is None}
    return kind in checks and checks[kind](value)


def loop_start(text: str) -> int | None:
    """If `text` ends with one span LOOP_REPEATS times over, where its second copy begins."""
    shortest, longest = LOOP_SPAN
    for span in range(shortest, min(longest, len(text) // LOOP_REPEATS) + 1):
        last = text[len(text) - span:]
        if all(text[len(text) - k * span: len(text) - (k - 1) * span] == last for k in range(2, LOOP_REPEATS + 1)):
            return len(text) - (LOOP_REPEATS - 1) * span
    return None


def closed_json(text: str, schema: dict[str, Any]) -> str | None:
    """The longest cut of `text` after a whole array item (or an empty array), with its open
    brackets closed, that fits `schema`; None if there is none."""
    stack: list[str] = []
    cuts: list[tuple[int, str]] = []  # (end of the kept text, the brackets it leaves open)
    in_string = escaped = False
    for i, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "[{":
            stack.append("]" if char == "[" else "}")
            if char == "[":
                cuts.append((i + 1, "".join(reversed(stack))))
        elif char in "]}" and stack:
            stack.pop()
        elif char == "," and stack and stack[-1] == "]":
            cuts.append((i, "".join(reversed(stack))))
    for end, closers in reversed(cuts):
        candidate = text[:end] + closers
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if fits(value, schema, schema):
            return candidate
    return None


class PromptReader:
    """One llama.cpp context, and how much of its KV cache a fresh read would have computed
    alike (the REUSE_GRID multiples before the last batch's ragged end): only that is reused.
    With `keep`, a prefix a read is about to drop is kept aside (its KV entries, copied), up to
    `keep` of them, and put back when a later prompt shares more with it than with the cache:
    a suite's tests that share a context read it once, though other questions come between."""

    def __init__(self, llm: Llama, keep: int = 0) -> None:
        self.llm = llm
        self.canonical = 0
        self.keep = keep
        self._kept: list[tuple[list[int], Any, bool]] = []  # (tokens, KV entries, put back before), last used last

    def read(self, tokens: list[int], end: int) -> int:
        """Leave `tokens[:end]` in the KV cache exactly as a fresh read would; return how many
        came from the cache."""
        llm = self.llm
        if end <= 0:
            return 0
        cached = llm.input_ids[: min(llm.n_tokens, self.canonical)].tolist()
        reuse = aligned_reuse(cached, tokens[:end], REUSE_GRID)
        if self.keep:
            reuse = self._recall(cached, tokens[:end], reuse)
        if reuse == 0 or not llm._ctx.kv_cache_seq_rm(-1, reuse, -1):
            llm.reset()  # type: ignore[no-untyped-call]  # llama_cpp leaves it unannotated
            reuse = 0
        llm.n_tokens = reuse
        llm.eval(tokens[reuse:end])
        self.canonical = end - end % REUSE_GRID
        return reuse

    def _recall(self, cached: list[int], wanted: list[int], reuse: int) -> int:
        """Keep what the cache holds if the read would drop some of it; put back the kept prefix
        that shares most with `wanted`, if it shares more than the cache. Returns the reuse."""
        import ctypes

        from llama_cpp import llama_state_seq_get_data, llama_state_seq_get_size, llama_state_seq_set_data

        llm, ctx = self.llm, self.llm._ctx.ctx
        shares = [(aligned_reuse(tokens, wanted, REUSE_GRID), tokens, data) for tokens, data, _ in self._kept]
        best = max(shares, key=lambda share: share[0], default=None)
        if len(cached) > reuse and len(cached) >= REUSE_GRID and llm._ctx.kv_cache_seq_rm(-1, len(cached), -1):
            size = llama_state_seq_get_size(ctx, 0)
            data = (ctypes.c_uint8 * min(size, KEPT_BYTES + 1))()
            if size <= KEPT_BYTES and llama_state_seq_get_data(ctx, data, size, 0) == size:
                prefixes = [k for k in self._kept if k[0] == cached[:len(k[0])]]  # they go, their use stays
                self._keep([k for k in self._kept if k not in prefixes], (cached, data, any(k[2] for k in prefixes)))
        if best is None or best[0] <= reuse:
            return reuse
        shared, tokens, data = best
        self._keep([k for k in self._kept if k[0] is not tokens], (tokens, data, True))
        llm._ctx.kv_cache_seq_rm(-1, 0, -1)
        if llama_state_seq_set_data(ctx, data, len(data), 0) != len(data):
            llm._ctx.kv_cache_seq_rm(-1, 0, -1)
            return 0
        llm.input_ids[:len(tokens)] = tokens
        llm.n_tokens = len(tokens)
        return shared

    def _keep(self, others: list[tuple[list[int], Any, bool]], last: tuple[list[int], Any, bool]) -> None:
        """`last` kept as the most recently used; beyond `keep` or KEPT_BYTES the oldest others go,
        those never put back first: a prefix every few tests return to (a question's worked
        examples, a shared context) outlives the one-off prompts read between them."""
        kept = [*others, last]
        while len(kept) > 1 and (len(kept) > self.keep or sum(len(data) for _, data, _ in kept) > KEPT_BYTES):
            kept.pop(next((i for i, (_, _, used) in enumerate(kept[:-1]) if not used), 0))
        self._kept = kept


def aligned_reuse(cached: list[int], tokens: list[int], chunk: int) -> int:
    """How many of `tokens` to take from the cache: their common prefix with `cached`, cut down
    to a multiple of `chunk` and leaving at least the last token to read (its logits are the
    answer), so the rest is read in the batches a fresh read would use."""
    shared = min(_common_prefix(cached, tokens), len(tokens) - 1)
    return shared - shared % chunk


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _piece(llm: Llama, token: int) -> str:
    return llm.detokenize([token]).decode("utf-8", errors="replace")
