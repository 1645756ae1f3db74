"""The answering programs, driven in pipelined blocks: a block of requests
is written by a thread while the answers are read, so neither side waits
on a round trip per case and no pipe fills up with nobody reading it."""

from __future__ import annotations

import json
import subprocess
import threading
from typing import IO, Sequence


class AnswererDied(RuntimeError):
    pass


class Answerer:
    def __init__(self, name: str, cmd: Sequence[str] | str, shell: bool = False, stderr: IO[str] | None = None):
        self.name = name
        self.proc = subprocess.Popen(
            cmd,
            shell=shell,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            encoding="utf-8",
            bufsize=1 << 20,
        )

    def ask(self, requests: list[dict]) -> list[dict]:
        """Answers, in request order, each checked to carry its request's id."""
        lines = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in requests)
        failure: list[BaseException] = []

        def write() -> None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write(lines)
                self.proc.stdin.flush()
            except BaseException as e:  # reported by the reader below
                failure.append(e)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        answers = []
        assert self.proc.stdout is not None
        for req in requests:
            line = self.proc.stdout.readline()
            if not line:
                writer.join(1)
                raise AnswererDied(f"{self.name} ended before answering request {req.get('id')} ({failure or 'EOF'})")
            a = json.loads(line)
            if a.get("id") != req.get("id"):
                raise AnswererDied(f"{self.name} answered id {a.get('id')} for request {req.get('id')}")
            answers.append(a)
        writer.join()
        return answers

    def close(self) -> None:
        if self.proc.stdin:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
