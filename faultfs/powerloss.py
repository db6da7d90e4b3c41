#!/usr/bin/env python3
"""Power-loss test of Sluice's embedded store: a workload, a nemesis, a checker.

Mounts faultfs over a scratch directory, serves an application package whose store lies on it, and feeds puts,
removes, conditional puts and updates from several connections over a few hundred documents, recording every request
and its outcome. After a random number of acknowledged operations it SIGKILLs the server and cuts the power (faultfs
rebuilds the store's directory from what was fsynced; every other cut also tears unsynced tails), restarts the server
on the same store and checks every document: it must hold what its last acknowledged operation left, or what the
operation in flight at the cut would have left. Repeats for --cycles cycles on the same store.

    python3 faultfs/powerloss.py --faultfs faultfs/build/faultfs --jar http-server/target/sluice-server.jar \
        --sync true --cycles 50

Prints one line per cycle and, last, `mode=... cycles=N acknowledged=N checked=N lost=N failed_restarts=N`.
Exit status: 0 when nothing acknowledged was lost and every restart answered, 1 otherwise. With --expect-loss (the
control run, sync="false"), 0 only when something acknowledged WAS lost: else the test is not testing anything.
"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

DOCUMENT_PATH = "/document/v1/power/music/docid/"
START_TIMEOUT = 120     # bounds for a hung child, not timing assertions
FEED_TIMEOUT = 300
REQUEST_TIMEOUT = 60

SCHEMA = """schema music {
  document music {
    field title type string { indexing: summary }
    field n type int { indexing: summary | attribute }
  }
}
"""


def services(sync):
    return f"""<services version="1.0">
  <container id="default" version="1.0">
    <http><server id="default" port="8080"/></http>
    <document-api/>
  </container>
  <content id="music" version="1.0">
    <min-redundancy>1</min-redundancy>
    <documents><document type="music" mode="index"/></documents>
    <engine><embedded sync="{sync}"/></engine>
    <nodes><node hostalias="node1" distribution-key="0"/></nodes>
  </content>
</services>
"""


class FaultFs:
    """faultfs mounted over <root>/backing at <root>/mnt; unmounted by close()."""

    def __init__(self, binary, root, seed):
        self.backing = os.path.join(root, "backing")
        self.state = os.path.join(root, "state")
        self.mnt = os.path.join(root, "mnt")
        self.control = os.path.join(root, "control.sock")
        for d in (self.backing, self.state, self.mnt):
            os.makedirs(d)
        self.log = open(os.path.join(root, "faultfs.log"), "w")
        self.process = subprocess.Popen([binary, "--seed", str(seed), self.backing, self.state, self.control,
                                         self.mnt], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while not (os.path.ismount(self.mnt) and os.path.exists(self.control)):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.close()
                raise SystemExit("faultfs did not mount; see " + self.log.name)
            time.sleep(0.05)

    def command(self, line):
        with socket.socket(socket.AF_UNIX) as s:
            s.settimeout(REQUEST_TIMEOUT)
            s.connect(self.control)
            s.sendall((line + "\n").encode())
            return s.makefile().readline().strip()

    def close(self):
        if os.path.ismount(self.mnt):
            subprocess.run(["fusermount3", "-u", self.mnt], check=False)
            if os.path.ismount(self.mnt):
                subprocess.run(["fusermount3", "-u", "-z", self.mnt], check=False)
        if self.process.poll() is None:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


class Server:
    """`sluice-server.jar serve` on a free loopback port, output in a log file."""

    def __init__(self, jar, app, data, log_path):
        self.log_path = log_path
        self.log = open(log_path, "w")
        self.process = subprocess.Popen(
            ["java", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError",
             "-jar", jar, "serve", "--app", app, "--data", data, "--port", "0", "--host", "127.0.0.1"],
            stdout=self.log, stderr=subprocess.STDOUT)
        self.port = None

    def await_up(self):
        """The port once /state/v1/health says up; None if the server exits or is not up in time."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline and self.process.poll() is None:
            if self.port is None:
                with open(self.log_path) as f:
                    found = re.search(r"Sluice listening on http://[^:/]+:(\d+)", f.read())
                if found:
                    self.port = int(found.group(1))
            if self.port is not None:
                try:
                    status, body = request(self.port, "GET", "/state/v1/health")
                    if status == 200 and json.loads(body)["status"]["code"] == "up":
                        return self.port
                except (OSError, http.client.HTTPException, ValueError, KeyError):
                    pass
            time.sleep(0.1)
        return None

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.log.close()

    def output(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()[-4000:]


def request(port, method, path, body=None, connection=None):
    own = connection is None
    connection = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if payload else {}
        connection.request(method, path, body=payload, headers=headers)
        response = connection.getresponse()
        return response.status, response.read().decode()
    finally:
        if own:
            connection.close()


def apply(operation, state):
    """The document a successful `operation` leaves when applied to `state` (None: absent)."""
    kind = operation["kind"]
    if kind == "put":
        return dict(operation["fields"])
    if kind == "remove":
        return None
    if kind == "conditional-put":
        return dict(operation["fields"]) if state is not None and state["n"] == operation["if_n"] else state
    if kind == "update":
        return None if state is None else dict(state, n=operation["n"])
    raise ValueError(kind)


class Workload:
    """Feeds from `connections` threads; thread t owns documents d with d % connections == t, so each document has at
    most one operation in flight and its history is a sequence."""

    def __init__(self, port, states, connections, rng, cycle):
        self.port = port
        self.states = states                 # document -> acknowledged state at the start of the cycle
        self.connections = connections
        self.seeds = [rng.getrandbits(64) for _ in range(connections)]
        self.cycle = cycle
        self.lock = threading.Condition()
        self.acknowledged = 0
        self.acknowledged_by_document = {}   # document -> acknowledged operations this cycle
        self.in_flight = {}                  # document -> operation sent without an answer
        self.errors = []                     # unexpected answers before the kill
        self.log = []                        # every request: document, operation, status (None: no answer)
        self.stopping = False

    def run_thread(self, index):
        rng = random.Random(self.seeds[index])
        mine = [d for d in range(len(self.states)) if d % self.connections == index]
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        sequence = 0
        try:
            while True:
                with self.lock:
                    if self.stopping:
                        return
                document = rng.choice(mine)
                state = self.current(document)
                sequence += 1
                value = {"title": f"c{self.cycle + 1}-t{index}-o{sequence}", "n": rng.randrange(1000)}
                roll = rng.random()
                if roll < 0.45:
                    operation = {"kind": "put", "fields": value}
                elif roll < 0.6:
                    operation = {"kind": "remove"}
                elif roll < 0.8 and state is not None:
                    operation = {"kind": "update", "n": value["n"]}
                else:  # the condition holds about half the time it can
                    if_n = state["n"] if state is not None and rng.random() < 0.5 else (value["n"] + 1) % 1000
                    operation = {"kind": "conditional-put", "fields": value, "if_n": if_n}
                with self.lock:
                    self.in_flight[document] = operation
                try:
                    status, body = self.send(connection, document, operation)
                except (OSError, http.client.HTTPException):
                    with self.lock:
                        self.log.append((document, operation, None))
                    return  # the server is gone: the operation stays in flight, its outcome unknown
                expected = 200
                if operation["kind"] == "conditional-put" and (state is None or state["n"] != operation["if_n"]):
                    expected = 412  # the condition does not hold: acknowledged as not applied
                with self.lock:
                    self.log.append((document, operation, status))
                    if status == expected:
                        del self.in_flight[document]
                        self.acknowledged_by_document.setdefault(document, []).append((operation, status))
                        self.acknowledged += 1
                        self.lock.notify_all()
                    else:
                        self.errors.append(f"doc-{document} {operation} answered {status} (expected {expected}): "
                                           f"{body[:200]}")
                        self.lock.notify_all()
                        return  # its outcome is unknown; it stays in flight
        finally:
            connection.close()

    def current(self, document):
        with self.lock:
            state = self.states[document]
            for operation, status in self.acknowledged_by_document.get(document, []):
                if status == 200:
                    state = apply(operation, state)
            return state

    def send(self, connection, document, operation):
        path = DOCUMENT_PATH + f"doc-{document}"
        kind = operation["kind"]
        if kind == "put":
            return request(self.port, "POST", path, {"fields": operation["fields"]}, connection)
        if kind == "remove":
            return request(self.port, "DELETE", path, None, connection)
        if kind == "update":
            return request(self.port, "PUT", path, {"fields": {"n": {"assign": operation["n"]}}}, connection)
        condition = urllib.parse.quote(f"music.n=={operation['if_n']}")
        return request(self.port, "POST", path + "?condition=" + condition, {"fields": operation["fields"]},
                       connection)

    def start(self):
        self.threads = [threading.Thread(target=self.run_thread, args=(i,), daemon=True)
                        for i in range(self.connections)]
        for thread in self.threads:
            thread.start()

    def await_acknowledged(self, count):
        deadline = time.monotonic() + FEED_TIMEOUT
        with self.lock:
            while self.acknowledged < count and not self.errors and time.monotonic() < deadline:
                if not any(t.is_alive() for t in self.threads):
                    break
                self.lock.wait(timeout=1)
            return self.acknowledged >= count

    def stop(self):
        with self.lock:
            self.stopping = True
        for thread in self.threads:
            thread.join(timeout=REQUEST_TIMEOUT + 10)


def read_all(port, documents):
    """Every document's fields (None when absent), or raises with what went wrong."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    found = []
    try:
        for document in range(documents):
            status, body = request(port, "GET", DOCUMENT_PATH + f"doc-{document}", None, connection)
            if status == 404:
                found.append(None)
            elif status == 200:
                found.append(json.loads(body)["fields"])
            else:
                raise RuntimeError(f"GET doc-{document} answered {status}: {body[:300]}")
    finally:
        connection.close()
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--faultfs", required=True)
    parser.add_argument("--jar", required=True)
    parser.add_argument("--sync", choices=("true", "false"), default="true")
    parser.add_argument("--cycles", type=int, default=50)
    parser.add_argument("--documents", type=int, default=300)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--min-acks", type=int, default=100)
    parser.add_argument("--max-acks", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--expect-loss", action="store_true",
                        help="control run: pass only if acknowledged writes were lost")
    parser.add_argument("--summary", help="also write the last line, the totals, to this file")
    parser.add_argument("--keep", action="store_true",
                        help="keep the scratch directory (server logs, histories, store) for a look; kept on failure")
    args = parser.parse_args()
    mode = f"sync={args.sync}"
    rng = random.Random(args.seed)
    print(f"{mode}: seed {args.seed} (rerun with --seed {args.seed}), {args.cycles} cycles, {args.documents} documents,"
          f" {args.connections} connections", flush=True)

    root = tempfile.mkdtemp(prefix="sluice-powerloss-")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    faultfs = None
    server = None
    totals = {"cycles": 0, "acknowledged": 0, "checked": 0, "lost": 0, "failed_restarts": 0}
    failures = []
    try:
        app = os.path.join(root, "app")
        os.makedirs(os.path.join(app, "schemas"))
        with open(os.path.join(app, "schemas", "music.sd"), "w") as f:
            f.write(SCHEMA)
        with open(os.path.join(app, "services.xml"), "w") as f:
            f.write(services(args.sync))
        faultfs = FaultFs(os.path.abspath(args.faultfs), os.path.join(root, "fs"), rng.getrandbits(32))
        data = os.path.join(faultfs.mnt, "data")
        states = [None] * args.documents
        history = None  # the previous cycle's workload, checked after the restart
        for cycle in range(args.cycles + 1):
            server = Server(os.path.abspath(args.jar), app, data, os.path.join(root, f"server-{cycle}.log"))
            port = server.await_up()
            if port is None:
                totals["failed_restarts"] += 1
                failures.append(f"cycle {cycle}: the server did not start on the store:\n{server.output()}")
                break
            if history is not None:
                try:
                    found = read_all(port, args.documents)
                except (OSError, http.client.HTTPException, RuntimeError, ValueError) as e:
                    totals["failed_restarts"] += 1
                    failures.append(f"cycle {cycle}: reading the store after the restart failed: {e}")
                    break
                lost = []
                for document in range(args.documents):
                    state = states[document]
                    acknowledged = history.acknowledged_by_document.get(document, [])
                    for operation, status in acknowledged:
                        if status == 200:
                            state = apply(operation, state)
                    allowed = [state]
                    if document in history.in_flight:
                        allowed.append(apply(history.in_flight[document], state))
                    if found[document] not in allowed:
                        lost.append(f"doc-{document}: after {len(acknowledged)} acknowledged operations "
                                    f"(last {acknowledged[-1] if acknowledged else None}), in flight "
                                    f"{history.in_flight.get(document)}: expected one of {allowed}, "
                                    f"found {found[document]}")
                totals["checked"] += args.documents
                totals["lost"] += len(lost)
                print(f"{mode} restart {cycle}: checked {args.documents} documents after {history.acknowledged} "
                      f"acknowledged operations: {len(lost)} lost", flush=True)
                for line in lost[:5]:
                    print("  LOST " + line, flush=True)
                states = found
            if cycle == args.cycles:
                break
            kill_after = rng.randint(args.min_acks, args.max_acks)
            workload = Workload(port, states, args.connections, rng, cycle)
            workload.start()
            reached = workload.await_acknowledged(kill_after)
            server.kill()  # SIGKILL while operations are in flight ...
            cut = faultfs.command("powercut torn" if cycle % 2 else "powercut")  # ... and the power
            workload.stop()
            server = None
            if not cut.startswith("ok"):
                failures.append(f"cycle {cycle}: faultfs answered {cut}")
                break
            if workload.errors or not reached:
                failures.append(f"cycle {cycle}: {workload.acknowledged} of {kill_after} operations acknowledged; "
                                f"unexpected answers: {workload.errors[:5]}")
                break
            with open(os.path.join(root, f"history-{cycle + 1}.jsonl"), "w") as f:
                for document, operation, status in workload.log:
                    f.write(json.dumps({"document": f"doc-{document}", "operation": operation, "status": status})
                            + "\n")
            totals["cycles"] += 1
            totals["acknowledged"] += workload.acknowledged
            print(f"{mode} cycle {cycle + 1}: {workload.acknowledged} acknowledged, {len(workload.in_flight)} in "
                  f"flight at the cut; {cut}", flush=True)
            history = workload
    finally:
        if server is not None:
            server.kill()
        if faultfs is not None:
            stats = faultfs.command("stats") if faultfs.process.poll() is None else "faultfs exited"
            print(f"{mode} faultfs: {stats}", flush=True)
            faultfs.close()
        run_failed = failures or (totals["lost"] == 0 if args.expect_loss else totals["lost"] > 0)
        if args.keep or run_failed:
            print(f"{mode}: logs and store kept in {root}", flush=True)
        else:
            shutil.rmtree(root, ignore_errors=True)

    for failure in failures:
        print(f"{mode} FAILED: {failure}", flush=True)
    ok = not failures
    if args.expect_loss:
        if totals["lost"] == 0:
            print(f"{mode} FAILED: the control lost no acknowledged write, so this test is not testing anything",
                  flush=True)
            ok = False
    elif totals["lost"] > 0:
        print(f"{mode} FAILED: acknowledged writes were lost", flush=True)
        ok = False
    summary = (f"mode={mode} cycles={totals['cycles']} acknowledged={totals['acknowledged']} "
               f"checked={totals['checked']} lost={totals['lost']} failed_restarts={totals['failed_restarts']}")
    print(summary, flush=True)
    if args.summary:
        with open(args.summary, "w") as f:
            f.write(summary + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
