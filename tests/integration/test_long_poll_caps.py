"""Long-polls never starve the GM: on the production server (4 threads, so 2 long-poll slots),
many followers of one display link waiting at once leave threads free, and a GM's read answers
in under a second; the polls over the caps are answered at once."""
import threading
import time

from bench.server import Client, Server, campaign_with_session, gm_with_token, start_duel


def test_many_long_polls_on_one_display_link_do_not_delay_the_gm(tmp_path):
    path = str(tmp_path / "caps.db")
    _, token = gm_with_token(path)
    with Server(path, threads=4) as server:
        gm = Client(server.port, token)
        campaign, session = campaign_with_session(gm)
        duel = start_duel(gm, campaign, session, "rocet")
        status, link = gm.command({"type": "IssuePlayerLink", "link_kind": "display", "target": duel})
        display = link["url"].rsplit("/", 2)[-2]
        version = gm.get(f"/api/v1/duels/{duel}")[1]["version"]
        answered = []

        def follow():
            started = time.monotonic()
            Client(server.port, timeout=60).get(f"/api/v1/display/{display}?since={version}&wait=8")
            answered.append(time.monotonic() - started)

        followers = [threading.Thread(target=follow) for _ in range(12)]
        for thread in followers:
            thread.start()
        time.sleep(1)
        started = time.monotonic()
        assert gm.get(f"/api/v1/duels/{duel}")[0] == 200
        assert time.monotonic() - started < 1
        for thread in followers:
            thread.join(timeout=30)
        assert sum(1 for took in answered if took < 2) >= 10  # over the caps: answered at once
