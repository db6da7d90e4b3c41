#!/usr/bin/env python3
"""Sluice's attack suite: what a hostile client or a bad day sends, against a real server process.

Starts `java -Xmx<heap> -jar <jar> serve` on a loopback port of its own, runs each case (bounded in count and time, each
stopping by itself), and prints one line of figures per case: status counts, server RSS before/peak/after (MB), the
worst latency and the failures of a probe that reads a document every 100 ms during the attack, and what the case
checks. A case whose promise breaks prints FAIL and makes the exit code 1; a case listed in KNOWN_OPEN (a limit not yet
built, named in its entry) prints OPEN instead and does not fail the run. Only the standard library; loopback only.

Extra JVM options for the server (e.g. GC logging): ATTACK_JAVA_OPTS.

Usage: attack.py --jar http-server/target/sluice-server.jar [--port 28300] [--heap 512m] [--only case,case] [--list]
"""

import argparse
import collections
import gzip
import http.client
import json
import os
import random
import re
import shutil
import socket
import string
import struct
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import zlib

APP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps", "default")
DOC = "/document/v1/attack/music/docid/"
PROBE_ID = "probe"

# Cases whose promise the server does not keep yet: they run and report, but do not fail the suite.
KNOWN_OPEN = set()

# A response body must not show the server's insides.
LEAK = re.compile(r"(java|javax|jakarta)\.[a-z]+\.|org\.eclipse\.|io\.sluice\.|\b[A-Za-z]+Exception\b|OutOfMemoryError")


class Server:
    """The server process under attack."""

    def __init__(self, jar, port, heap, workdir, loopback=True, app=APP, data=None, may_fail=False):
        self.jar = jar
        self.port = port
        self.log_path = os.path.join(workdir, "server.log")
        self.data = data or os.path.join(workdir, "data")
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            ["java", "-Xmx" + heap, "-XX:+ExitOnOutOfMemoryError"] + os.environ.get("ATTACK_JAVA_OPTS", "").split() + ["-jar", jar, "serve", "--app", app,
             "--port", str(port), "--data", self.data] + (["--host", "127.0.0.1"] if loopback else []),
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.process.poll() is not None:
                if may_fail:
                    return
                raise SystemExit("server exited at start-up; see " + self.log_path)
            try:
                if request("GET", "/state/v1/health", port=port, timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise SystemExit("server did not start within 60 s")

    def alive(self):
        return self.process.poll() is None

    def rss_mb(self):
        try:
            with open("/proc/%d/status" % self.process.pid) as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) // 1024
        except OSError:
            pass
        return 0

    def log_text(self):
        if not self.log.closed:
            self.log.flush()
        with open(self.log_path, "rb") as log:
            return log.read().decode("utf-8", "replace")

    def stop(self):
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


def request(method, path, body=None, headers=None, port=None, timeout=30):
    """One request on a fresh connection: (status, body bytes, seconds)."""
    start = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        content = response.read()
        return response.status, content, time.monotonic() - start
    finally:
        connection.close()


class Probe(threading.Thread):
    """Reads the probe document every 100 ms and samples the server's RSS, until stopped."""

    def __init__(self, server):
        super().__init__(daemon=True)
        self.server = server
        self.stopped = threading.Event()
        self.latencies = []
        self.failures = collections.Counter()
        self.peak_rss = server.rss_mb()

    def run(self):
        while not self.stopped.is_set():
            self.peak_rss = max(self.peak_rss, self.server.rss_mb())
            try:
                status, _, seconds = request("GET", DOC + PROBE_ID, port=self.server.port, timeout=10)
                self.latencies.append(seconds)
                if status != 200:
                    self.failures[str(status)] += 1
            except OSError as e:
                self.latencies.append(10.0)
                self.failures[type(e).__name__] += 1
            self.stopped.wait(0.1)

    def stop(self):
        self.stopped.set()
        self.join(15)


class Case:
    """What one attack did and whether its promises held."""

    def __init__(self, name):
        self.name = name
        self.statuses = collections.Counter()
        self.broken = []
        self.notes = []
        self.bodies = []

    def status(self, status, body=b""):
        self.statuses[str(status)] += 1
        if body:
            self.bodies.append(body)

    def expect(self, condition, promise):
        if not condition:
            self.broken.append(promise)

    def note(self, text):
        self.notes.append(text)


def send_raw(port, head, body_parts=(), timeout=60, read=True):
    """Sends a hand-made request on one connection and returns (status, body) of the response, or (error name, b'').
    The body is sent from a thread of its own while this one reads, so an early answer (413 before the body is all
    sent) is seen as the client would see it."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.sendall(head)
    if not read:
        for part in body_parts:
            sock.sendall(part)
        return sock

    def send():
        try:
            for part in body_parts:
                sock.sendall(part)
        except OSError:
            pass  # the server answered early and closed; the response says why

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    try:
        return read_response(sock)
    except OSError as e:
        return type(e).__name__, b""
    finally:
        sock.close()
        sender.join(timeout)


def read_response(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return "closed", b""
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = re.search(rb"(?i)content-length:\s*(\d+)", head)
    if length:
        while len(rest) < int(length.group(1)):
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
    return status, rest


def put_head(doc_id, length=None, extra=b""):
    head = b"POST " + (DOC + doc_id).encode() + b" HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    if length is None:
        head += b"Transfer-Encoding: chunked\r\n"
    else:
        head += b"Content-Length: " + str(length).encode() + b"\r\n"
    return head + extra + b"Connection: close\r\n\r\n"


def stored_title(server, doc_id):
    status, body, _ = request("GET", DOC + doc_id, port=server.port)
    if status != 200:
        return status
    return json.loads(body)["fields"].get("title")


# --- the cases ------------------------------------------------------------------------------------------------------

def case_big_put(server, case):
    """One put of 100,000,000 bytes, declared: refused or stored, never out of memory."""
    size = 100_000_000
    prefix = b'{"fields":{"title":"'
    suffix = b'"}}'
    filler = size - len(prefix) - len(suffix)
    block = b"a" * (1 << 20)
    parts = [prefix] + [block] * (filler // len(block)) + [b"a" * (filler % len(block)), suffix]
    status, body = send_raw(server.port, put_head("big", size), parts, timeout=120)
    case.status(status, body)
    request("DELETE", DOC + "big", port=server.port)
    case.expect(status in (200, 413, 429), "answered 200, 413 or 429")


def big_chunked_body(total):
    """A chunked JSON body of about {@code total} bytes, as chunk frames."""
    block = b"a" * (1 << 20)
    frames = [b"%x\r\n%s\r\n" % (len(b'{"fields":{"title":"'), b'{"fields":{"title":"')]
    for _ in range(total // len(block)):
        frames.append(b"%x\r\n" % len(block) + block + b"\r\n")
    frames.append(b'3\r\n"}}\r\n0\r\n\r\n')
    return frames


def case_chunked_put(server, case):
    """One 200 MB chunked put (no declared size): refused by streamed size."""
    status, body = send_raw(server.port, put_head("chunked"), big_chunked_body(200 << 20), timeout=120)
    case.status(status, body)
    case.expect(status == 413, "413 by streamed size")


def case_concurrent_puts(server, case):
    """Four concurrent 60 MB puts: each stored or refused (413/429), the heap holds."""
    size = 60_000_000
    body = b'{"fields":{"title":"' + b"b" * (size - 23) + b'"}}'
    results = []

    def put(i):
        results.append(send_raw(server.port, put_head("concurrent-%d" % i, len(body)), [body], timeout=120))

    threads = [threading.Thread(target=put, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(150)
    for status, content in results:
        case.status(status, content)
    case.expect(len(results) == 4 and all(status in (200, 413, 429) for status, _ in results), "only 200, 413 or 429")
    for i in range(4):  # later cases visit the corpus: leave no 60 MB document behind
        request("DELETE", DOC + "concurrent-%d" % i, port=server.port)


def gzip_bomb(inflated):
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\0" * (1 << 20)
    out = [compressor.compress(b'{"fields":{"title":"')]
    for _ in range(inflated // len(block)):
        out.append(compressor.compress(block))
    out.append(compressor.flush())
    return b"".join(out)


def case_gzip_bomb(server, case):
    """Four concurrent gzip bombs (1 MB on the wire, 1 GB inflated): 413 on inflated size."""
    bomb = gzip_bomb(1 << 30)
    case.note("wire=%dKB" % (len(bomb) // 1024))
    results = []

    def put(i):
        results.append(send_raw(server.port, put_head("bomb-%d" % i, len(bomb), b"Content-Encoding: gzip\r\n"),
                                [bomb], timeout=120))

    threads = [threading.Thread(target=put, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(150)
    for status, content in results:
        case.status(status, content)
    case.expect(len(results) == 4 and all(status in (413, 429) for status, _ in results), "413 (or 429) for every bomb")


def put_gzipped(server, case, doc_id, compressed):
    status, body = send_raw(server.port, put_head(doc_id, len(compressed), b"Content-Encoding: gzip\r\n"), [compressed],
                            timeout=30)
    case.status(status, body)
    return status


def case_gzip_corrupt(server, case):
    """A gzip body with one flipped bit, one truncated, one not gzip at all: 400 each, nothing stored."""
    good = gzip.compress(b'{"fields":{"title":"hello world"}}')
    corrupt = bytearray(good)
    corrupt[-8] ^= 1  # the CRC
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 4  # inside the deflate data
    for doc_id, body in (("gz-crc", bytes(corrupt)), ("gz-flip", bytes(flipped)), ("gz-cut", good[:-5]),
                         ("gz-plain", b'{"fields":{"title":"hello world"}}')):
        start = time.monotonic()
        status = put_gzipped(server, case, doc_id, body)
        case.expect(status == 400, "400 for " + doc_id)
        case.expect(time.monotonic() - start < 10, "prompt answer for " + doc_id)
        case.expect(stored_title(server, doc_id) == 404, "nothing stored for " + doc_id)


def case_invalid_utf8(server, case):
    """Overlong '/', a code point past U+10FFFF and a lone surrogate: 400 each, nothing stored."""
    for doc_id, raw in (("utf8-overlong", b"a\xc0\xafb"), ("utf8-beyond", b"a\xf4\x90\x80\x80b"),
                        ("utf8-surrogate", b"a\xed\xa0\x80b")):
        body = b'{"fields":{"title":"' + raw + b'"}}'
        status, content = send_raw(server.port, put_head(doc_id, len(body)), [body])
        case.status(status, content)
        case.expect(status == 400, "400 for " + doc_id)
        case.expect(stored_title(server, doc_id) == 404, "nothing stored for " + doc_id)


def case_arithmetic(server, case):
    """increment by 1e400, divide by zero, and an int field at its largest incremented by 1: 400, the document
    unchanged."""
    status, body, _ = request("POST", DOC + "arith", body=b'{"fields":{"year":2147483647}}', port=server.port)
    case.expect(status == 200, "setup put")
    for update in (b'{"fields":{"year":{"increment":1e400}}}', b'{"fields":{"year":{"divide":0}}}',
                   b'{"fields":{"year":{"increment":1}}}'):
        status, body, _ = request("PUT", DOC + "arith", body=update, port=server.port)
        case.status(status, body)
        case.expect(status == 400, "400 for " + update.decode())
    status, body, _ = request("GET", DOC + "arith", port=server.port)
    case.expect(status == 200 and json.loads(body)["fields"].get("year") == 2147483647, "year unchanged")


def case_slow_bodies(server, case):
    """300 puts whose bodies never finish: reads meanwhile are not refused (the probe), and the slots come back."""
    sockets = []
    try:
        for i in range(300):
            sock = send_raw(server.port, put_head("slow-%d" % i, 100_000), [b'{"fields":{"title":"'], read=False)
            sockets.append(sock)
        time.sleep(3)
        for i in range(20):
            status, body, _ = request("GET", DOC + PROBE_ID, port=server.port, timeout=10)
            case.status(status, body)
        case.expect(case.statuses.get("200", 0) == 20, "reads answered 200 while 300 bodies trickle")
    finally:
        for sock in sockets:
            sock.close()
    time.sleep(1)
    status, body, _ = request("POST", DOC + "after-slow", body=b'{"fields":{"title":"ok"}}', port=server.port)
    case.expect(status == 200, "puts work once the slow clients are gone")


def feed(server, count, prefix, title):
    body = json.dumps({"fields": {"title": title}}).encode()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        for i in range(count):
            connection.request("POST", DOC + "%s-%d" % (prefix, i), body=body)
            connection.getresponse().read()
    finally:
        connection.close()


def stalled_clients(server, head, count, source="127.0.0.1"):
    """Opens {count} connections from {source} that send {head} and then never read (a 4 KB receive buffer)."""
    sockets = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=30, source_address=(source, 0))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.sendall(head)
        sockets.append(sock)
    return sockets


def concurrently(function, count, seconds):
    """Runs {function} on {count} threads at once and waits for them, at most {seconds} each."""
    threads = [threading.Thread(target=function) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds)


def first_statuses(case, sockets):
    """Records the status each socket's response starts with ("silent" if nothing came yet); returns the 429s."""
    refused = 0
    for sock in sockets:
        sock.settimeout(0.05)
        try:
            first = sock.recv(64)
            status = int(first.split(b" ")[1]) if first.startswith(b"HTTP/") else "other"
        except OSError:
            status = "silent"
        refused += status == 429
        case.status(status)
    return refused


def case_stalled_visits(server, case):
    """200 streamed visits whose clients never read: at most the visit limit run, the rest 429; the heap holds."""
    feed(server, 1000, "visit", "v" * 10_000)
    head = (b"GET /document/v1/attack/music/docid?stream=true&timeout=60s&cluster=content HTTP/1.1\r\n"
            b"Host: localhost\r\n\r\n")
    sockets = []
    try:
        sockets = stalled_clients(server, head, 200)
        time.sleep(5)
        refused = first_statuses(case, sockets)
        case.expect(refused > 0, "visits beyond the limit refused (429)")
    finally:
        for sock in sockets:
            sock.close()


def metric(server, name):
    """The first value of metric `name` in /state/v1/metrics, or None if it is not there."""
    status, body, _ = request("GET", "/state/v1/metrics", port=server.port, timeout=10)
    if status != 200:
        return None
    for value in json.loads(body)["metrics"]["values"]:
        if value["name"] == name:
            return next(iter(value["values"].values()))
    return None


def h2_visits(server, source, streams):
    """An h2c connection from `source` that opens `streams` streamed visits with a zero flow-control window (the server
    may send no data on them) and never reads."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=(source, 0))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    zero_window = b"\x00\x04\x00\x00\x00\x00"  # SETTINGS_INITIAL_WINDOW_SIZE = 0
    sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + h2_frame(0x4, 0, 0, zero_window))
    path = "/document/v1/attack/music/docid?stream=true&timeout=600s&cluster=content"
    sock.sendall(b"".join(h2_get(1 + 2 * k, path) for k in range(streams)))
    return sock


def case_visit_fairness(server, case):
    """One client (127.0.0.2) holds streamed visits it never reads: 4 h2c connections with 32 streams each and a zero
    flow-control window, and 200 HTTP/1.1 visits that never read. Meanwhile a 10-document visit from another client
    (127.0.0.3) answers 200 within 2 s, every time; the attacker's excess visits get 429 naming the per-client limit;
    and after the stall timeout (30 s) its visits are ended and their slots free (httpapi_stalled_visits)."""
    feed(server, 1000, "fair", "f" * 10_000)
    attacker, other = "127.0.0.2", "127.0.0.3"
    stalled_before = metric(server, "httpapi_stalled_visits") or 0
    opened = time.monotonic()
    head = (b"GET /document/v1/attack/music/docid?stream=true&timeout=600s&cluster=content HTTP/1.1\r\n"
            b"Host: localhost\r\n\r\n")
    h1, h2 = [], []
    log_before = len(server.log_text())

    def h1_visits(count):
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=30, source_address=(attacker, 0))
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.sendall(head)
            h1.append(sock)

    try:
        h1_visits(8)  # these run, and stall once the socket buffers are full
        time.sleep(1)
        h2.extend(h2_visits(server, attacker, 32) for _ in range(4))  # the first connection's take the rest of its share
        time.sleep(1)
        h1_visits(192)
        time.sleep(3)  # the attacker's visits start and fill what they may
        running = metric(server, "httpapi_running_visits")
        case.note("attacker_running=%s" % running)
        worst, served = 0.0, 0
        for _ in range(10):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10, source_address=(other, 0))
            start = time.monotonic()
            try:
                connection.request("GET", "/document/v1/attack/music/docid?wantedDocumentCount=10&cluster=content"
                                   "&selection=music.title%3D~%22%5Ef%22")
                response = connection.getresponse()
                status, body = response.status, response.read()
            except OSError as e:
                status, body = type(e).__name__, b""
            finally:
                connection.close()
            seconds = time.monotonic() - start
            worst = max(worst, seconds)
            case.status(status, body if status != 200 else b"")
            served += status == 200 and seconds < 2
            time.sleep(0.3)
        case.note("other_worst_ms=%.0f" % (worst * 1000))
        case.expect(served == 10, "every visit of the other client answers 200 within 2 s (%d/10 did)" % served)
        refused, named = 0, 0
        for sock in h1:
            sock.settimeout(0.05)
            try:
                first = sock.recv(4096)
            except OSError:
                continue
            if first.startswith(b"HTTP/1.1 429"):
                refused += 1
                named += b"per-client limit reached" in first
                case.bodies.append(first)
        case.note("attacker_h1_429=%d/200" % refused)
        case.expect(refused > 0, "the attacker's excess visits get 429")
        case.expect(named == refused, "every 429 of the attacker names the per-client limit (%d/%d do)" % (named, refused))
        # The stall timeout ends the attacker's visits: wait for it (30 s by default) and a sweep after it.
        deadline = opened + 60
        stalled = 0
        while time.monotonic() < deadline:
            stalled = (metric(server, "httpapi_stalled_visits") or 0) - stalled_before
            if running and stalled >= running and metric(server, "httpapi_running_visits") == 0:
                break
            time.sleep(1)
        case.note("stalled_ended=%d after %.0f s" % (stalled, time.monotonic() - opened))
        case.expect(running is not None and stalled >= running, "every stalled visit ended by the stall timeout")
        case.expect(metric(server, "httpapi_running_visits") == 0, "their slots free again")
        case.expect(metric(server, "httpapi_visit_bytes") == 0, "their memory free again")
        log = server.log_text()[log_before:]
        case.expect("\tat " not in log, "no stack trace in the log")
        case.expect(log.count("took no data for") == 1, "the ended visits are logged")
    finally:
        for sock in h1 + h2:
            sock.close()
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        for i in range(1000):  # later cases visit the corpus: leave it as it was
            connection.request("DELETE", DOC + "fair-%d" % i)
            connection.getresponse().read()
        connection.close()


def case_regex_selection(server, case):
    """Four concurrent visits with a regex that backtracks catastrophically in Java, over 50 documents with
    20k-character titles: the visits answer 200 and the API stays up (RE2 searches in linear time)."""
    feed(server, 50, "regex", "a" * 20_000 + "!")
    selection = "music.title%20%3D~%20%22(a%2B)%2B%24%22"
    results = []

    def visit():
        try:
            results.append(request("GET", "/document/v1/attack/music/docid?selection=" + selection + "&timeout=20s&cluster=content",
                                   port=server.port, timeout=60)[:2])
        except OSError as e:
            results.append((type(e).__name__, b""))

    concurrently(visit, 4, 90)
    for status, body in results:
        case.status(status, body)
    case.expect(len(results) == 4 and all(status == 200 for status, _ in results), "every visit answers 200")


def case_large_document_visits(server, case):
    """Four 30 MB documents, then 32 concurrent visits over them: 16 streamed whose client (127.0.0.2) never reads, and
    16 paged pages that want every document from another. What visits hold is bounded together: answers are 200 or
    429, never an OutOfMemoryError, and the API stays up."""
    title = "L" * (30 << 20)
    for i in range(4):
        status, body = request("POST", DOC + "large-%d" % i, body=json.dumps({"fields": {"title": title}}).encode(),
                               port=server.port, timeout=120)[:2]
        case.status(status, body)
        if status != 200:
            case.expect(False, "large document %d stored (%s)" % (i, status))
            return
    del title
    stream_head = (b"GET /document/v1/attack/music/docid?stream=true&timeout=20s&cluster=content"
                   b"&selection=music.title%3D~%22%5EL%22 HTTP/1.1\r\nHost: localhost\r\n\r\n")
    sockets = []
    results = []

    def page():
        try:
            status, body = request("GET", "/document/v1/attack/music/docid?wantedDocumentCount=10&timeout=20s"
                                   "&cluster=content&selection=music.title%3D~%22%5EL%22", port=server.port, timeout=90)[:2]
            results.append((status, body[:2000] if status != 200 else b""))
            if status == 200:
                pages.append((status, None, len(json.loads(body).get("documents", []))))
        except OSError as e:
            results.append((type(e).__name__, b""))

    pages = []
    try:
        sockets = stalled_clients(server, stream_head, 16, "127.0.0.2")  # one client's share of the visit slots
        concurrently(page, 16, 120)
        for status, body in results:
            case.status(status, body)
        first_statuses(case, sockets)
        case.expect(len(results) == 16 and all(status in (200, 429) for status, _ in results),
                    "every page answers 200 or 429")
        case.expect(any(status == 200 for status, _ in results), "some page is served")
        case.note("page_documents=%d" % sum(documents for _, _, documents in pages))
        for sock in sockets:
            sock.close()
        sockets = []
        # Alone, one visit passes every large document, following its continuations.
        found, continuation, rounds = 0, None, 0
        while rounds < 50:
            rounds += 1
            status, body = request("GET", "/document/v1/attack/music/docid?wantedDocumentCount=10&timeout=20s"
                                   "&cluster=content&selection=music.title%3D~%22%5EL%22"
                                   + ("&continuation=" + continuation if continuation else ""), port=server.port,
                                   timeout=90)[:2]
            if status != 200:
                case.status(status, body[:2000])
                break
            page_body = json.loads(body)
            found += len(page_body.get("documents", []))
            continuation = page_body.get("continuation")
            if not continuation:
                break
        case.note("alone_found=%d/4 in %d pages" % (found, rounds))
        case.expect(found == 4, "a visit alone returns all 4 large documents")
    finally:
        for sock in sockets:
            sock.close()
        for i in range(4):
            request("DELETE", DOC + "large-%d" % i, port=server.port, timeout=60)


def fill_to_last_byte(path):
    """Appends zeros to `path` until its file system has no byte left."""
    for size in (65536, 1):
        try:
            with open(path, "ab") as filler:
                while True:
                    filler.write(b"\0" * size)
                    filler.flush()
        except OSError:
            pass


def health(port):
    """The status object of /state/v1/health: {"code": ..., "message": ...}."""
    status, body, _ = request("GET", "/state/v1/health", port=port, timeout=10)
    return json.loads(body)["status"] if status == 200 else {"code": "http-%s" % status}


def case_disk_full_restart(server, case):
    """A store on a 24 MB file system (a tmpfs; needs root) fed until RocksDB itself finds the disk full (507), then
    filled to the last byte, stopped, and started again on the still-full disk: the stop logs no stack trace; the start
    serves (reads 200, writes 507 once the log's last page is full, /state/v1/health up with a message saying so);
    freeing space makes it take writes again without a restart; and every acknowledged document is there, before and
    after a restart."""
    workdir = tempfile.mkdtemp(prefix="sluice-attack-disk-")
    small = os.path.join(workdir, "small")
    os.makedirs(small)
    if os.geteuid() != 0 or subprocess.call(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", small],
                                            stderr=subprocess.DEVNULL) != 0:
        case.note("skipped: mounting a tmpfs needs root")
        return
    app = os.path.join(workdir, "app")
    shutil.copytree(APP, app, ignore=shutil.ignore_patterns("data"))
    services = os.path.join(app, "services.xml")
    with open(services) as f:
        xml = f.read()
    with open(services, "w") as f:
        f.write(xml.replace("<min-redundancy>1</min-redundancy>", "<min-redundancy>1</min-redundancy>\n"
                            "    <engine><embedded min-free-disk=\"0\" write-buffers=\"1m\" block-cache=\"1m\"/></engine>"))
    port = server.port + 50 if server.port < 28350 else server.port - 50
    data = os.path.join(small, "data")
    filler = os.path.join(small, "filler")
    rng = random.Random(1)
    acknowledged = []
    victim = None

    def put(name, connection=None):
        title = "".join(rng.choice(string.ascii_letters) for _ in range(1000))
        own = connection is None
        connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            connection.request("POST", DOC + name, body=json.dumps({"fields": {"title": title}}))
            response = connection.getresponse()
            body = response.read()
        finally:
            if own:
                connection.close()
        if response.status == 200:
            acknowledged.append(name)
        return response.status, body

    def missing():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        lost = 0
        for name in acknowledged:
            connection.request("GET", DOC + name)
            response = connection.getresponse()
            response.read()
            lost += response.status != 200
        connection.close()
        return lost

    try:
        victim = Server(server.jar, port, "256m", workdir, app=app, data=data)
        reserve = os.path.join(data, "content", "sluice-disk-reserve")
        waited = time.monotonic()
        while not os.path.exists(reserve) and time.monotonic() - waited < 30:
            time.sleep(0.5)  # the store writes its disk reserve within seconds of starting
        case.note("reserve_kb=%d" % (os.path.getsize(reserve) // 1024 if os.path.exists(reserve) else -1))
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while len(acknowledged) < 50_000:
            status, body = put("disk-%d" % len(acknowledged), connection)
            if status != 200:
                case.status(status, body)
                break
        connection.close()
        case.expect(len(acknowledged) < 50_000, "the file system fills (507)")
        fill_to_last_byte(filler)
        victim.stop()
        stop_log = victim.log_text()
        traced = [line for line, after in zip(stop_log.splitlines(), stop_log.splitlines()[1:]) if after.startswith("\tat ")]
        if traced:
            case.note("traced=%r" % traced[0][:300])
        case.expect(not traced, "stopping on a full disk logs no stack trace")
        fill_to_last_byte(filler)  # what stopping left free, too

        full = victim = Server(server.jar, port, "256m", workdir, app=app, data=data, may_fail=True)
        start_log = full.log_text()[len(stop_log):]
        if not full.alive():
            failure = [line for line in start_log.splitlines() if "failed to start" in line]
            case.note("full_start=failed: %s" % (failure[0][:200] if failure else "exit %s" % full.process.returncode))
            case.expect(False, "the server starts on the full disk")
            return
        reads = [request("GET", DOC + name, port=port, timeout=30)[0] for name in acknowledged[::97]]
        case.expect(all(status == 200 for status in reads), "reads on the full disk answer 200")
        extra, write = 0, None
        while extra < 1000:  # a write may still fit in the log's preallocated last page: then it is acknowledged
            write = put("disk-full-%d" % extra)
            if write[0] != 200:
                break
            extra += 1
        case.status(write[0], write[1])
        case.expect(write[0] == 507, "writes on the full disk answer 507 (%s)" % write[0])
        message = json.loads(write[1]).get("message", "") if write[0] == 507 else ""
        case.expect("disk" in message, "the 507 says the disk is full: %r" % message[:200])
        state = health(port)
        case.note("full_start=serving extra_writes=%d health=%s" % (extra, json.dumps(state).replace(" ", "_")[:240]))
        case.expect(state.get("code") == "up" and "507" in state.get("message", ""),
                    "/state/v1/health is up and says writes are refused")

        os.remove(filler)  # space returns; no restart
        started, taken = time.monotonic(), None
        while time.monotonic() - started < 60:
            taken = put("disk-freed-%d" % int((time.monotonic() - started) * 10))
            if taken[0] == 200:
                break
            time.sleep(0.5)
        case.note("writes_back_after_s=%.1f" % (time.monotonic() - started))
        case.expect(taken is not None and taken[0] == 200, "writes taken again once space is freed, without a restart")
        while time.monotonic() - started < 60 and "message" in health(port):
            time.sleep(0.5)
        case.expect("message" not in health(port), "/state/v1/health no longer reports the full disk")
        case.expect("\tat " not in full.log_text()[len(stop_log):], "no stack trace in the log")
        lost_running = missing()
        victim.stop()
        victim = Server(server.jar, port, "256m", workdir, app=app, data=data)
        lost_restarted = missing()
        case.note("acknowledged=%d lost=%d/%d" % (len(acknowledged), lost_running, lost_restarted))
        case.expect(lost_running == 0 and lost_restarted == 0,
                    "every acknowledged document is there, running and after a restart")
    finally:
        if victim is not None:
            victim.stop()
        for _ in range(20):  # the stopped server's files may take a moment to be let go
            if subprocess.call(["umount", small], stderr=subprocess.DEVNULL) == 0:
                break
            time.sleep(0.5)
        else:
            subprocess.call(["umount", "-l", small])
        shutil.rmtree(workdir, ignore_errors=True)


def h2_frame(kind, flags, stream, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def hpack_literal(name, value):
    """A header field as a literal without indexing: no Huffman coding, so the block is as long as the text."""
    def integer(number):
        if number < 127:
            return bytes([number])
        out, number = [127], number - 127
        while number >= 128:
            out.append((number & 127) | 128)
            number >>= 7
        return bytes(out + [number])
    return b"\x00" + integer(len(name)) + name.encode() + integer(len(value)) + value.encode()


def h2_get(stream, path):
    block = b"".join(hpack_literal(n, v) for n, v in ((":method", "GET"), (":scheme", "http"),
                                                     (":authority", "127.0.0.1"), (":path", path)))
    chunks = [block[i:i + 16384] for i in range(0, len(block), 16384)]
    frames = b""
    for i, chunk in enumerate(chunks):
        end_headers = 0x4 if i == len(chunks) - 1 else 0
        frames += h2_frame(0x1, 0x1 | end_headers, stream, chunk) if i == 0 else h2_frame(0x9, end_headers, stream, chunk)
    return frames


def h2_connection(server):
    """A raw h2c connection after the preface and an empty SETTINGS; the caller reads or not."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + h2_frame(0x4, 0, 0, b""))
    return sock


def h2_frames(sock, seconds):
    """Yields the frames the server sends, as (type, flags, stream, payload), for up to `seconds`; then, or when the
    connection ends, yields ("closed", 0, 0, b"") if it ended and stops."""
    sock.settimeout(0.5)
    data, deadline = b"", time.time() + seconds
    while time.time() < deadline:
        while len(data) >= 9 and len(data) >= 9 + int.from_bytes(data[:3], "big"):
            length = int.from_bytes(data[:3], "big")
            yield data[3], data[4], int.from_bytes(data[5:9], "big") & 0x7fffffff, data[9:9 + length]
            data = data[9 + length:]
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            chunk = b""
        if not chunk:
            yield "closed", 0, 0, b""
            return
        data += chunk


def case_long_id_h2(server, case):
    """A 70 KiB id over h2c between two normal reads on one connection, sent as plain HPACK literals (nghttp cannot send
    a path over 64 KiB): 431 for it, the reads served, no GOAWAY or reset."""
    sock = h2_connection(server)
    bodies, ended, closed = {}, set(), None
    try:
        sock.sendall(h2_get(1, DOC + PROBE_ID) + h2_get(3, DOC + "x" * 70 * 1024) + h2_get(5, DOC + PROBE_ID))
        for kind, flags, stream, payload in h2_frames(sock, 20):
            if kind == "closed":
                closed = "connection closed"
            elif kind == 0x7:
                closed = "GOAWAY %s" % payload[8:].decode(errors="replace")
            elif kind == 0x3:
                closed = "RST_STREAM on stream %d" % stream
            elif kind == 0x0:
                bodies[stream] = bodies.get(stream, b"") + payload
            if kind in (0x0, 0x1) and flags & 0x1:
                ended.add(stream)
            if len(ended) == 3 or closed is not None:
                break
    finally:
        sock.close()
    for stream in (1, 3, 5):
        body = bodies.get(stream, b"")
        if b"Request header fields too large" in body:
            case.status(431, body)
        elif b'"fields"' in body:
            case.status(200)
        else:
            case.status("unanswered" if stream not in ended else "other", body)
    if closed:
        case.note(closed.replace(" ", "_"))
    case.expect(closed is None and case.statuses["431"] == 1 and case.statuses["200"] == 2,
                "431 for the long id, 200 for the reads on the same connection, which stays open")


def h2load_summary(output):
    """(succeeded, failed, errored) from h2load's "requests:" line, or None."""
    match = re.search(r"requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed, (\d+) errored", output)
    return tuple(int(g) for g in match.groups()) if match else None


def case_bulk_h2(server, case):
    """Legitimate bulk traffic is not cut off by the anti-flood limits: 20,000 puts over 4 h2c connections with 256
    streams each, then a streamed visit in 8 slices over one connection, all answered, no GOAWAY or reset."""
    if shutil.which("h2load") is None:
        case.note("h2load missing: skipped")
        return
    with tempfile.TemporaryDirectory(prefix="sluice-bulk-") as work:
        body = os.path.join(work, "doc.json")
        with open(body, "w") as f:
            f.write(json.dumps({"fields": {"title": "t" * 1000}}))
        uris = os.path.join(work, "uris")
        with open(uris, "w") as f:
            for i in range(2000):
                f.write("http://127.0.0.1:%d%sbulk-%d\n" % (server.port, DOC, i))
        feed = subprocess.run(["h2load", "-n", "20000", "-c", "4", "-m", "256", "-d", body, "-i", uris,
                               "-H", "content-type: application/json"], capture_output=True, text=True, timeout=300)
        summary = h2load_summary(feed.stdout)
        case.note("feed=%s" % (summary,))
        case.expect(summary is not None and summary[0] == 20000 and summary[2] == 0,
                    "every put of the 4x256 feed answered 2xx, none errored")
        slices = os.path.join(work, "slices")
        with open(slices, "w") as f:
            for i in range(8):
                f.write("http://127.0.0.1:%d/document/v1/attack/music/docid?cluster=content&stream=true&slices=8"
                        "&sliceId=%d&wantedDocumentCount=1000000&timeout=60s\n" % (server.port, i))
        visit = subprocess.run(["h2load", "-n", "8", "-c", "1", "-m", "8", "-i", slices], capture_output=True,
                               text=True, timeout=300)
        summary = h2load_summary(visit.stdout)
        case.note("visit=%s" % (summary,))
        case.expect(summary is not None and summary[0] == 8 and summary[2] == 0, "all 8 visit slices answered 200")
        for line in (feed.stdout + visit.stdout).splitlines():
            if "GOAWAY" in line or "RST_STREAM" in line:
                case.expect(False, "no GOAWAY or reset: " + line.strip())


def case_malformed_headers(server, case):
    """Two connections flood malformed HEADERS (an upper-case field name, no :path) and never read what the server
    sends back: normal reads on other connections are answered (within the 10 s every read of the suite gets)."""
    sockets = []
    try:
        for _ in range(2):
            sock = h2_connection(server)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sockets.append(sock)
        bad = [hpack_literal(":method", "GET") + hpack_literal(":scheme", "http") + hpack_literal(":authority", "x")
               + hpack_literal(":path", DOC + PROBE_ID) + hpack_literal("X-Upper", "1"),
               hpack_literal(":method", "GET") + hpack_literal(":scheme", "http") + hpack_literal(":authority", "x")]
        stop = threading.Event()

        def flood(sock):
            stream = 1
            try:
                while not stop.is_set() and stream < 2 ** 31 - 2:
                    frames = b"".join(h2_frame(0x1, 0x5, stream + 2 * k, bad[k % 2]) for k in range(100))
                    stream += 200
                    sock.sendall(frames)
            except OSError:
                pass

        threads = [threading.Thread(target=flood, args=(sock,), daemon=True) for sock in sockets]
        for thread in threads:
            thread.start()
        worst = 0.0
        for _ in range(20):
            start = time.monotonic()
            try:
                status = request("GET", DOC + PROBE_ID, port=server.port, timeout=10)[0]
            except OSError as e:
                status = type(e).__name__
            worst = max(worst, time.monotonic() - start)
            case.status(status)
            time.sleep(0.25)
        stop.set()
        case.note("worst_read_ms=%.0f" % (worst * 1000))
        case.expect(case.statuses["200"] == 20, "every read during the flood answered 200")
        # Before the fair end point reads timed out (Jetty parsed the flood on the selector thread); how long they take
        # otherwise is a figure (worst_read_ms), not a promise: the probe's 10 s timeout is the only clock here.
    finally:
        for sock in sockets:
            sock.close()


def h2_goaway(sock, seconds):
    """Reads what the server sends for up to `seconds`: how it ended the connection (a GOAWAY's code and reason, or
    "closed"), or None if it did not."""
    for kind, _, _, payload in h2_frames(sock, seconds):
        if kind == "closed":
            return "closed"
        if kind == 0x7:
            return "GOAWAY_%d_%s" % (int.from_bytes(payload[4:8], "big"), payload[8:].decode(errors="replace"))
    return None


def flood(sock, frames, seconds, max_bytes):
    """Sends `frames` (bytes) again and again for up to `seconds` or `max_bytes`; how many bytes went out."""
    sent, deadline = 0, time.time() + seconds
    try:
        while time.time() < deadline and sent < max_bytes:
            sock.sendall(frames)
            sent += len(frames)
    except OSError:
        pass
    return sent


def case_rapid_reset(server, case):
    """HTTP/2 rapid reset (CVE-2023-44487): streams opened and cancelled at once, as fast as the client can, for 5 s:
    the API stays available and memory bounded (the server may end the connection)."""
    sock = h2_connection(server)
    try:
        get = b"".join(hpack_literal(n, v) for n, v in ((":method", "GET"), (":scheme", "http"),
                                                       (":authority", "x"), (":path", DOC + PROBE_ID)))
        sent, stream, deadline = 0, 1, time.time() + 5
        try:
            while time.time() < deadline and stream < 2 ** 31 - 400:
                batch = b"".join(h2_frame(0x1, 0x5, stream + 2 * k, get) + h2_frame(0x3, 0, stream + 2 * k, b"\0\0\0\x08")
                                 for k in range(100))
                sock.sendall(batch)
                sent += 100
                stream += 200
        except OSError:
            pass
        case.note("streams_reset=%d" % sent)
        ending = h2_goaway(sock, 2)
        if ending:
            case.note("server_ended_connection=" + ending.replace(" ", "_"))
    finally:
        sock.close()


def case_frame_floods(server, case):
    """Floods of SETTINGS, PING, PRIORITY, WINDOW_UPDATE and empty DATA frames, 4 s each on a connection that does not
    read: the API stays available and memory bounded."""
    open_stream = h2_frame(0x1, 0x4, 1, b"".join(hpack_literal(n, v) for n, v in (
        (":method", "POST"), (":scheme", "http"), (":authority", "x"), (":path", DOC + "flood"),
        ("content-type", "application/json"))))
    floods = {
        "settings": h2_frame(0x4, 0, 0, b""),
        "ping": h2_frame(0x6, 0, 0, b"12345678"),
        "priority": h2_frame(0x2, 0, 3, b"\0\0\0\x01\x10"),
        "window_update": h2_frame(0x8, 0, 0, b"\0\0\0\x01"),
        "empty_data": h2_frame(0x0, 0, 1, b""),
    }
    for name, frame in floods.items():
        sock = h2_connection(server)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        try:
            if name == "empty_data":
                sock.sendall(open_stream)
            sent = flood(sock, frame * 1000, 4, 200 << 20)
            ending = h2_goaway(sock, 1)
            case.note("%s=%dKB%s" % (name, sent // 1024, "," + ending.replace(" ", "_") if ending else ""))
        finally:
            sock.close()


def case_continuation_bomb(server, case):
    """A HEADERS frame followed by endless CONTINUATION frames (no END_HEADERS), 50 MB: the server ends the connection
    and holds no more than its header limit."""
    sock = h2_connection(server)
    try:
        start = h2_frame(0x1, 0x1, 1, hpack_literal(":method", "GET") + b"\x00\x7f\xff\xff\x7f" + b"a" * 16000)
        sock.sendall(start)
        sent = flood(sock, h2_frame(0x9, 0, 1, b"a" * 16384) * 16, 10, 50 << 20)
        ending = h2_goaway(sock, 2)
        case.note("sent=%dKB ending=%s" % (sent // 1024, (ending or "none").replace(" ", "_")))
        case.expect(ending is not None, "the server ends the connection")
        case.expect(sent < 50 << 20 or ending is not None, "the bomb is refused before it is all sent")
    finally:
        sock.close()


def case_hpack_bomb(server, case):
    """An HPACK bomb: one 4 KB header put in the dynamic table, then referenced 4,000 times per HEADERS frame
    (16 MB decoded from 4 KB sent), 200 frames: refused without the memory it would take."""
    sock = h2_connection(server)
    try:
        value = "v" * 4000
        first = b"".join(hpack_literal(n, v) for n, v in ((":method", "GET"), (":scheme", "http"),
                                                         (":authority", "x"), (":path", DOC + PROBE_ID)))
        first += b"\x40" + bytes([len("x-bomb")]) + b"x-bomb" + b"\x7f" + bytes([(4000 - 127) & 127 | 128, (4000 - 127) >> 7]) + value.encode()
        sock.sendall(h2_frame(0x1, 0x5, 1, first))
        references = b"\xbe" * 4000  # index 62: the newest dynamic table entry
        sent = 0
        try:
            for k in range(200):
                sock.sendall(h2_frame(0x1, 0x5, 3 + 2 * k, references))
                sent += 1
        except OSError:
            pass
        ending = h2_goaway(sock, 2)
        case.note("frames=%d ending=%s" % (sent, (ending or "none").replace(" ", "_")))
    finally:
        sock.close()


def case_smuggling(server, case):
    """HTTP/1.1 request smuggling: Content-Length with chunked Transfer-Encoding, and two different Content-Lengths:
    400, and the request hidden in the body is never served."""
    smuggled = b"GET " + DOC.encode() + b"smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
    heads = [b"POST " + DOC.encode() + b"cl-te HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n"
             b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled,
             b"POST " + DOC.encode() + b"cl-cl HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 0\r\n\r\n"
             + smuggled]
    for head in heads:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        try:
            sock.sendall(head)
            sock.settimeout(3)
            data = b""
            try:
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    data += chunk
            except socket.timeout:
                pass
        finally:
            sock.close()
        responses = re.findall(rb"^HTTP/1\.1 (\d{3})", data, re.M)
        for status in responses:
            case.status(int(status), data)
        case.expect(responses[:1] == [b"400"] and len(responses) == 1, "one 400 and nothing smuggled: %s" % responses)


def case_slowloris(server, case):
    """500 connections trickling their headers: normal requests are still served (the probe)."""
    sockets = []
    try:
        for _ in range(500):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            sockets.append(sock)
        for _ in range(5):
            for sock in sockets:
                try:
                    sock.sendall(b"X-a: b\r\n")
                except OSError:
                    pass
            time.sleep(1)
        status, body, _ = request("GET", DOC + PROBE_ID, port=server.port, timeout=10)
        case.status(status, body)
        case.expect(status == 200, "a normal read is served")
    finally:
        for sock in sockets:
            sock.close()


def case_slowloris_keepalive(server, case):
    """200 kept-alive connections that each complete a request, then trickle the head of the next one byte every 2 s
    for 36 s: the server closes them (a head seen in progress at two checks 10 s apart, the first 20 s after the
    connection opened), and reads stay served."""
    sockets = []
    try:
        for _ in range(200):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall(b"GET " + DOC.encode() + PROBE_ID.encode() + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            sock.recv(65536)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
            sockets.append(sock)
        closed = 0
        for _ in range(18):
            time.sleep(2)
            for sock in list(sockets):
                try:
                    sock.sendall(b"X")
                except OSError:
                    closed += 1
                    sockets.remove(sock)
        for sock in list(sockets):  # a closed socket may only show when read
            try:
                sock.setblocking(False)
                if sock.recv(1) == b"":
                    closed += 1
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
        case.note("closed_by_server=%d/200" % closed)
        case.expect(closed == 200, "every trickling kept-alive connection closed by the server")
        status, body, _ = request("GET", DOC + PROBE_ID, port=server.port, timeout=10)
        case.status(status, body)
    finally:
        for sock in sockets:
            sock.close()


CASES = [case_big_put, case_chunked_put, case_concurrent_puts, case_gzip_bomb, case_gzip_corrupt, case_invalid_utf8,
         case_arithmetic, case_slow_bodies, case_stalled_visits, case_long_id_h2, case_malformed_headers, case_rapid_reset,
         case_frame_floods, case_continuation_bomb, case_hpack_bomb, case_smuggling, case_slowloris, case_slowloris_keepalive,
         case_regex_selection, case_large_document_visits, case_visit_fairness, case_disk_full_restart, case_bulk_h2]


def run_case(server, function):
    case = Case(function.__name__[len("case_"):])
    before = server.rss_mb()
    probe = Probe(server)
    probe.start()
    start = time.monotonic()
    try:
        function(server, case)
    except Exception as e:  # a crashed attack is a broken promise too, reported with its reason
        where = [frame.lineno for frame in traceback.extract_tb(e.__traceback__) if frame.filename == __file__]
        case.expect(False, "attack ran (%s: %s, at line %s)" % (type(e).__name__, e, where[-2:] if where else "?"))
    elapsed = time.monotonic() - start
    time.sleep(1)
    probe.stop()
    after = server.rss_mb()
    case.expect(server.alive(), "server alive")
    case.expect("OutOfMemoryError" not in server.log_text(), "no OutOfMemoryError")
    case.expect(not probe.failures, "probe reads all 200")
    leaks = [b for b in case.bodies if LEAK.search(b.decode("utf-8", "replace"))]
    case.expect(not leaks, "no Java class names in error bodies")
    if server.alive():
        try:
            status = request("GET", DOC + PROBE_ID, port=server.port, timeout=10)[0]
        except OSError:
            status = "error"
        case.expect(status == 200, "API answers after the attack")
    verdict = "PASS" if not case.broken else ("OPEN" if case.name in KNOWN_OPEN else "FAIL")
    probe_max = max(probe.latencies) * 1000 if probe.latencies else 0
    print("%-4s %-16s %5.1fs statuses=%s rss_mb=%d/%d/%d probe_max_ms=%.0f probe_failures=%s%s%s" % (
        verdict, case.name, elapsed, dict(sorted(case.statuses.items())), before, probe.peak_rss, after, probe_max,
        dict(probe.failures), (" " + " ".join(case.notes)) if case.notes else "",
        (" broken=" + "; ".join(case.broken)) if case.broken else ""), flush=True)
    return verdict


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jar", required=True)
    parser.add_argument("--port", type=int, default=28300)
    parser.add_argument("--heap", default="512m")
    parser.add_argument("--only", default="")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--no-host", action="store_true",
                        help="for builds before --host existed: the server then listens on all interfaces")
    args = parser.parse_args()
    cases = CASES
    if args.list:
        for function in cases:
            print(function.__name__[len("case_"):] + ": " + function.__doc__)
        return 0
    if args.only:
        wanted = set(args.only.split(","))
        cases = [function for function in cases if function.__name__[len("case_"):] in wanted]
    if not 28300 <= args.port <= 28399:
        raise SystemExit("attack ports are 28300-28399")
    verdicts = []
    with tempfile.TemporaryDirectory(prefix="sluice-attack-") as workdir:
        server = None
        for function in cases:
            if server is None or not server.alive():
                if server is not None:
                    print("     (server died; restarting; log tail: %s)" % server.log_text()[-2000:].replace("\n", " | "))
                    server.stop()
                    args.port = 28300 + (args.port - 28300 + 1) % 100
                server = Server(args.jar, args.port, args.heap, tempfile.mkdtemp(dir=workdir), not args.no_host)
                status = request("POST", DOC + PROBE_ID, body=b'{"fields":{"title":"probe"}}', port=server.port)[0]
                if status != 200:
                    raise SystemExit("cannot write the probe document: %s" % status)
            verdicts.append(run_case(server, function))
        server.stop()
    failed = verdicts.count("FAIL")
    print("attack suite: %d cases, %d pass, %d fail, %d open" % (len(verdicts), verdicts.count("PASS"), failed,
                                                                 verdicts.count("OPEN")))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
