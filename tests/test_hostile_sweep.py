"""Issue 40, part 2 of "What to build": sweeps that answer or stop (engine/sweep/cluster.py, scale.py).

A `--scheduler` that accepts and never answers hung a sweep for over 6 minutes (the 15 s timeout
covered only the TCP connect); a 10⁶-cell plan started with no estimate or question; `--jobs`
had no bound; a corpus listed twice computed every statistic twice."""
from __future__ import annotations

import contextlib
import io
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.sweep.cluster import check_address, handshake
from engine.sweep.errors import SweepError
from engine.sweep.scale import MAX_CELLS, Scale, confirm_scale
from testkit.audit_fixtures import write_mini_corpus
from testkit.terminal import default_sigint

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def listener(greeting: bytes | None = None):
    """A TCP listener on 127.0.0.1 that accepts every connection and never answers (or says ``greeting``)."""
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    conns: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        srv.settimeout(0.1)
        while not stop.is_set():
            try:
                c, _ = srv.accept()
            except OSError:
                continue
            if greeting:
                c.sendall(greeting)
            conns.append(c)

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    try:
        yield srv.getsockname()[1]
    finally:
        stop.set()
        t.join(5)
        for c in conns:
            c.close()
        srv.close()


def _plan(tmp_path: Path, corpora: str = '["c/gui-mini.toml"]', models: str = '["vader"]') -> Path:
    write_mini_corpus(tmp_path / "c")
    plan = tmp_path / "plan.toml"
    plan.write_text(f"[sweep]\ncorpora = {corpora}\nmodels = {models}\nstats = [\"paired\"]\nbootstrap = 0\n",
                    encoding="utf-8")
    return plan


def _sweep(tmp_path: Path, *extra: str, plan: Path | None = None) -> subprocess.Popen:
    plan = plan or _plan(tmp_path)
    return subprocess.Popen([sys.executable, "main.py", "sweep", str(plan), "--out", str(tmp_path / "out"), *extra],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)


def test_a_silent_listener_is_named_within_the_deadline(tmp_path):
    with listener() as port:
        start = time.monotonic()
        proc = _sweep(tmp_path, "--scheduler", f"tcp://127.0.0.1:{port}", "--scheduler-timeout", "3")
        _out, err = proc.communicate(timeout=120)
        took = time.monotonic() - start
    assert proc.returncode == 2, err
    assert f"no Dask scheduler answered at tcp://127.0.0.1:{port} within 3 s" in err
    assert "Traceback" not in err
    assert took < 60, took  # 3 s deadline plus the interpreter's start on a loaded machine


def test_a_web_server_is_not_taken_for_a_scheduler(tmp_path):
    web = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1"], cwd=tmp_path,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        port = int(web.stdout.readline().split(" port ")[1].split()[0])
        with pytest.raises(SweepError, match=f"no Dask scheduler answered at tcp://127.0.0.1:{port} within 2 s"):
            handshake(f"tcp://127.0.0.1:{port}", "127.0.0.1", port, 2.0)
    finally:
        web.terminate()
        web.wait(10)


def test_a_program_that_speaks_another_protocol_is_named():
    with listener(b"SSH-2.0-OpenSSH_9.6\r\n") as port:
        with pytest.raises(SweepError, match=r"is not a Dask scheduler \(it answered b'SSH-2.0-'\)"):
            handshake(f"tcp://127.0.0.1:{port}", "127.0.0.1", port, 5.0)


def test_ctrl_c_stops_a_sweep_waiting_for_its_scheduler_at_once(tmp_path):
    with listener() as port:
        proc = _sweep(tmp_path, "--scheduler", f"tcp://127.0.0.1:{port}", "--scheduler-timeout", "300")
        line = proc.stderr.readline()  # the size line: the command is running
        assert line.startswith("sweep: 1 corpus(es) × 1 model(s) = 1 cell(s)"), line
        time.sleep(2.0)
        start = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
        took = time.monotonic() - start
    assert proc.returncode == 130, err
    assert "cancelled" in err and "Traceback" not in err
    assert took < 15, took


@pytest.mark.parametrize("address, says", [
    ("http://127.0.0.1:8786", r"reached over tcp:// \(or tls://\), not http://"),
    ("tcp://127.0.0.1", "has no port between 1 and 65535"),
    ("tcp://127.0.0.1:70000", "has no port between 1 and 65535"),
    ("tcp://127.0.0.1:port", "has no port between 1 and 65535"),
    ("tcp://:8786", "is not tcp://HOST:PORT"),
    ("tcp://a b:8786", "is not a scheduler address"),
    ("tcp://127.0.0.1:8786/x?y=1", "is not tcp://HOST:PORT"),
])
def test_scheduler_addresses_are_checked_before_anything_starts(address, says):
    with pytest.raises(SweepError, match=says) as err:
        check_address(address)
    assert err.value.field == "--scheduler"


def test_a_good_address_is_normalised():
    assert check_address("127.0.0.1:8786") == ("tcp://127.0.0.1:8786", "127.0.0.1", 8786)
    assert check_address("tcp://[::1]:8786")[0] == "tcp://[::1]:8786"


def _main(*argv: str) -> tuple[int, str]:
    import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main.main(list(argv))
    return code, err.getvalue()


def test_jobs_has_an_upper_bound(tmp_path):
    code, err = _main("sweep", str(_plan(tmp_path)), "--out", str(tmp_path / "o"), "--jobs", "100000")
    assert code == 2 and f"use at most --jobs {4 * (os.cpu_count() or 1)}" in err


def test_the_size_is_said_and_a_big_sweep_needs_yes(tmp_path, monkeypatch):
    import engine.sweep.scale as scale

    plan = _plan(tmp_path, models='["vader", "textblob"]')
    monkeypatch.setattr(scale, "MAX_CELLS", 1)
    code, err = _main("sweep", str(plan), "--out", str(tmp_path / "o"), "--jobs", "1")
    assert code == 2
    assert err.splitlines()[0].startswith("sweep: 1 corpus(es) × 2 model(s) = 2 cell(s), 1 statistic(s); rough time:")
    assert "2 cells (1 corpus(es) × 2 model(s)) is over 1; rough time" in err and "pass --yes" in err
    assert not (tmp_path / "o").exists()


def test_confirm_scale_asks_a_person_and_refuses_a_script():
    big = Scale(corpora=1000, models=1000, stats=None)
    assert big.cells == 1_000_000 and "d" in big.line().split("rough time: ")[1].split(" ")[0]  # days
    with pytest.raises(SweepError, match="1,000,000 cells"):
        confirm_scale(big, yes=False, confirm=None)
    asked = []
    confirm_scale(big, yes=False, confirm=lambda q: asked.append(q) or True)
    assert asked and "1,000,000 cells" in asked[0]
    confirm_scale(big, yes=True, confirm=None)
    confirm_scale(Scale(1, MAX_CELLS, 1), yes=False, confirm=None)  # at the cap: no question


def test_a_corpus_listed_twice_is_refused_at_its_line(tmp_path):
    write_mini_corpus(tmp_path / "c")
    plan = tmp_path / "plan.toml"
    plan.write_text('[sweep]\ncorpora = [\n  "c/gui-mini.toml",\n  "en-kiritchenko2018",\n  "c/gui-mini.toml",\n]\n'
                    'models = ["vader"]\n', encoding="utf-8")
    from engine.sweep.plan_file import load_sweep_plan

    with pytest.raises(SweepError) as err:
        load_sweep_plan(plan)
    assert str(err.value).startswith(f"{plan}:5 [sweep.corpora]: 'c/gui-mini.toml' is listed twice in 'corpora'")
    plan.write_text('[sweep]\ncorpora = ["en-kiritchenko2018"]\nmodels = ["vader", "textblob", "vader"]\n',
                    encoding="utf-8")
    with pytest.raises(SweepError, match=r":3 \[sweep.models\]: 'vader' is listed twice"):
        load_sweep_plan(plan)


@pytest.mark.parametrize("line, key, says", [
    ("bootstrap = 1000000000", "bootstrap", "must be between 0 and 1e+06"),
    ("person_permutations = 100000000000", "person_permutations", "must be between 0 and 1e+07"),
    ("chunk_size = 1000000000", "chunk_size", "'chunk_size' must be at most 1,000,000"),
    ("retries = 1000000", "retries", "'retries' must be at most 100"),
])
def test_plan_numbers_have_upper_bounds(tmp_path, line, key, says):
    from engine.sweep.plan_file import load_sweep_plan

    plan = tmp_path / "plan.toml"
    plan.write_text(f'[sweep]\ncorpora = ["en-kiritchenko2018"]\nmodels = ["vader"]\n{line}\n', encoding="utf-8")
    with pytest.raises(SweepError) as err:
        load_sweep_plan(plan)
    assert f":4 [sweep.{key}]:" in str(err.value) and says in str(err.value), str(err.value)
