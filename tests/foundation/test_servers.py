"""The real servers: Daphne serving pages, static files and WebSocket; `run_site` (make run) starting and stopping."""

from __future__ import annotations

import base64
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import time
import urllib.request
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from tests import processes

pytestmark = pytest.mark.django_db(transaction=True)


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=20) as response:
        return response.status, response.read()


def test_daphne_serves_pages_health_and_static_files(live_server_url: str) -> None:
    status, home = _get(f"{live_server_url}/")
    assert status == 200
    assert b"Durak championships" in home

    status, health = _get(f"{live_server_url}/healthz")
    assert status == 200
    assert json.loads(health)["status"] == "ok"

    status, htmx = _get(f"{live_server_url}/static/vendor/htmx-2.0.11.min.js")
    assert status == 200
    assert htmx.startswith(b"var htmx=")


class _WebSocket:
    """Just enough of RFC 6455 to open a socket, send text frames and read them back."""

    def __init__(self, url: str, *, origin: str) -> None:
        parts = urlsplit(url)
        assert parts.hostname and parts.port
        self.connection = socket.create_connection((parts.hostname, parts.port), timeout=20)
        key = base64.b64encode(os.urandom(16)).decode()
        self.connection.sendall(
            (
                f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                f"Origin: {origin}\r\n\r\n"
            ).encode()
        )
        self.handshake = self._read_until(b"\r\n\r\n").decode()

    def _read_until(self, marker: bytes) -> bytes:
        data = b""
        while marker not in data:
            chunk = self.connection.recv(1)
            if not chunk:
                break
            data += chunk
        return data

    def _read_exactly(self, size: int) -> bytes:
        data = bytearray()
        while len(data) < size:
            chunk = self.connection.recv(min(size - len(data), 1 << 20))
            if not chunk:
                raise ConnectionError("socket closed")
            data += chunk
        return bytes(data)

    @staticmethod
    def text_frame(text: str) -> bytes:
        """A client's (masked) text frame."""
        payload = text.encode()
        if len(payload) < 126:
            header = bytes([0x81, 0x80 | len(payload)])
        elif len(payload) < 1 << 16:
            header = bytes([0x81, 0x80 | 126]) + struct.pack("!H", len(payload))
        else:
            header = bytes([0x81, 0x80 | 127]) + struct.pack("!Q", len(payload))
        mask = os.urandom(4)
        repeated = (mask * (len(payload) // 4 + 1))[: len(payload)]
        masked = int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")
        return header + mask + masked.to_bytes(len(payload), "big")

    def send_text(self, text: str) -> None:
        self.connection.sendall(self.text_frame(text))

    def receive_text(self) -> str:
        first, second = self._read_exactly(2)
        assert first & 0x0F == 0x1, f"expected a text frame, got opcode {first & 0x0F}"
        length = second & 0x7F
        if length == 126:
            (length,) = struct.unpack("!H", self._read_exactly(2))
        elif length == 127:
            (length,) = struct.unpack("!Q", self._read_exactly(8))
        return self._read_exactly(length).decode()

    def close(self) -> None:
        self.connection.close()

    def reset(self) -> None:
        """Leave at once: the server's next writes find a connection reset."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()


def _ping(payload: object) -> str:
    return json.dumps({"type": "ping", "payload": payload})


def test_daphne_accepts_a_websocket_and_answers_a_ping(live_server_url: str) -> None:
    socket_url = live_server_url.replace("http://", "ws://") + "/ws/ping/"
    websocket = _WebSocket(socket_url, origin=live_server_url)
    try:
        assert websocket.handshake.startswith("HTTP/1.1 101"), websocket.handshake
        websocket.send_text(_ping("through daphne"))
        assert json.loads(websocket.receive_text()) == {"type": "pong", "payload": "through daphne", "user": None}
    finally:
        websocket.close()


# durak_site.serve sends a write at once when nothing waits before it (durak_site.wire): what Daphne sends,
# small or large, must arrive whole and in order, and a client gone mid-stream must cost no traceback.


def test_many_messages_each_way_arrive_whole_and_in_order(live_server_url: str) -> None:
    websocket = _WebSocket(live_server_url.replace("http://", "ws://") + "/ws/ping/", origin=live_server_url)
    try:
        assert websocket.handshake.startswith("HTTP/1.1 101"), websocket.handshake
        window = 50  # below the in-memory channel layer's capacity (100) for the echoes on their way
        for first in range(0, 1000, window):
            payloads = [f"{number}:" + "x" * (number * 37 % 3000) for number in range(first, first + window)]
            websocket.connection.sendall(b"".join(websocket.text_frame(_ping(payload)) for payload in payloads))
            echoed = [json.loads(websocket.receive_text())["payload"] for _ in payloads]
            assert echoed == payloads
    finally:
        websocket.close()


def test_a_message_larger_than_the_socket_buffers_arrives_whole(live_server_url: str) -> None:
    websocket = _WebSocket(live_server_url.replace("http://", "ws://") + "/ws/ping/", origin=live_server_url)
    try:
        assert websocket.handshake.startswith("HTTP/1.1 101"), websocket.handshake
        large = "".join(f"{number:07d}" for number in range(100_000))  # 700 KB, every piece different
        websocket.send_text(_ping(large))
        websocket.send_text(_ping("after"))
        time.sleep(0.5)  # the server's socket buffer fills: the rest of the echo waits in Twisted's
        answer = json.loads(websocket.receive_text())
        assert answer["type"] == "pong"
        assert len(answer["payload"]) == len(large)
        assert answer["payload"] == large
        assert json.loads(websocket.receive_text())["payload"] == "after"
    finally:
        websocket.close()


def test_a_client_gone_mid_stream_leaves_no_traceback(live_server_url: str) -> None:
    daphne = processes.RUNNING["daphne"]
    logged_before = daphne.log_size()
    socket_url = live_server_url.replace("http://", "ws://") + "/ws/ping/"
    for _ in range(3):
        leaving = _WebSocket(socket_url, origin=live_server_url)
        assert leaving.handshake.startswith("HTTP/1.1 101"), leaving.handshake
        # More than the server reads at once, then a reset while it still reads and echoes them.
        leaving.connection.sendall(b"".join(leaving.text_frame(_ping("y" * 20_000)) for _ in range(80)))
        leaving.reset()
    # Each reset socket is seen gone (Daphne logs its WSDISCONNECT), not left open with its application.
    deadline = time.monotonic() + 15
    while daphne.log_since(logged_before).count("WSDISCONNECT") < 3:
        assert time.monotonic() < deadline, daphne.log_since(logged_before)[-3000:]
        time.sleep(0.2)

    staying = _WebSocket(socket_url, origin=live_server_url)
    try:
        staying.send_text(_ping("still here"))
        assert json.loads(staying.receive_text())["payload"] == "still here"
    finally:
        staying.close()
    assert "Traceback" not in daphne.log_since(logged_before)


def test_daphne_refuses_a_websocket_from_another_site(live_server_url: str) -> None:
    socket_url = live_server_url.replace("http://", "ws://") + "/ws/ping/"
    websocket = _WebSocket(socket_url, origin="https://evil.example")
    try:
        assert websocket.handshake.startswith("HTTP/1.1 403"), websocket.handshake
    finally:
        websocket.close()


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_run_site_serves_and_stops_everything_it_started_on_ctrl_c(test_database_url: str) -> None:
    port = processes.free_port()
    environment = processes.subprocess_environment(database=test_database_url)
    with processes.started(
        [sys.executable, "manage.py", "run_site", "--port", str(port)], environment=environment, name="run-site"
    ) as site:
        deadline = time.monotonic() + 60
        while "Serving http://" not in site.log() or not _port_answers(port):
            assert site.process.poll() is None, site.log()
            assert time.monotonic() < deadline, site.log()
            time.sleep(0.2)
        assert _get(f"http://127.0.0.1:{port}/healthz")[0] == 200
        children = {name: int(pid) for name, pid in re.findall(r"started (\S+) \(pid (\d+)\)", site.log())}
        expected = {"daphne"} if settings.TASKS_IN_PROCESS else {"daphne", "celery-worker", "celery-beat"}
        assert set(children) == expected

        site.process.send_signal(signal.SIGINT)
        assert site.process.wait(timeout=30) == 0, site.log()
        assert "all stopped" in site.log()

    assert [name for name, pid in children.items() if _process_exists(pid)] == []
    assert not _port_answers(port)


def _port_answers(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


def test_run_site_stops_the_rest_when_one_process_dies(test_database_url: str) -> None:
    """A port already taken makes Daphne exit; run_site must not leave a half-started site behind."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "manage.py", "run_site", "--port", str(port)],
            cwd=processes.PROJECT_DIR,
            env=processes.subprocess_environment(database=test_database_url),
            capture_output=True,
            text=True,
            timeout=90,
        )
    assert result.returncode != 0
    assert "daphne exited with status" in result.stderr + result.stdout
    children = [int(pid) for pid in re.findall(r"started \S+ \(pid (\d+)\)", result.stdout)]
    assert children and not any(_process_exists(pid) for pid in children)
