"""An oversized body is refused by the server before it is read: the production server (as `make
run` starts it) answers 413 to an anonymous 200 MB POST at once, from its headers alone, instead
of spooling the body to disk first (waitress's own limit is 1 GB unless told)."""
import socket
import time

from bench.server import Server


def test_a_200_mb_anonymous_post_is_refused_before_its_body_is_sent(tmp_path):
    with Server(str(tmp_path / "limits.db")) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            started = time.monotonic()
            sock.sendall(b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/x-www-form-urlencoded\r\n"
                         b"Content-Length: %d\r\n\r\n" % (200 * 1024 * 1024) + b"username=a&password=")
            answer = sock.recv(4096)  # nothing more of the body is ever sent
            elapsed = time.monotonic() - started
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert elapsed < 2


def test_the_server_takes_the_body_limit_from_the_apps_settings(monkeypatch):
    from tracker import create_app
    from tracker.web.serve import body_limit

    monkeypatch.setenv("SECRET_KEY", "limits")
    monkeypatch.setenv("TOUCHE_MAX_UPLOAD_MB", "3")
    monkeypatch.setenv("TOUCHE_MAX_BODY_KB", "100")
    assert body_limit(create_app().config) == 3 * 1024 * 1024
    monkeypatch.setenv("TOUCHE_MAX_BODY_KB", str(8 * 1024))
    assert body_limit(create_app().config) == 8 * 1024 * 1024
