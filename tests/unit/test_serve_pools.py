"""The production server's two pools: every request that follows something live, and only those,
goes to the followers' pool (tracker.web.serve.follows)."""
from tracker.web.serve import follow_caps, follows


def test_the_follow_requests_go_to_the_followers_pool():
    for path, query in [("/api/v1/duels/d1/changes", "since=3&wait=25"), ("/api/duels/d1/changes", ""),
                        ("/api/v1/duels/d1/stream", ""), ("/api/v1/campaigns/c1/changes", "since=0"),
                        ("/api/v1/campaigns/c1/stream", ""), ("/api/v1/display/tok/stream", ""),
                        ("/api/v1/display/tok", "since=4&wait=20"), ("/seat/tok/live", "v=ab12"),
                        ("/play/tok/display/live", "v=3"), ("/duels/d1/live", "v=3")]:
        assert follows(path, query), path


def test_pages_commands_and_reads_stay_on_the_pages_pool():
    for path, query in [("/duels/d1", ""), ("/api/v1/commands", ""), ("/api/v1/duels/d1", "steps_since=3"),
                        ("/api/v1/display/tok", ""), ("/api/v1/display/tok", "steps_since=1"),
                        ("/seat/tok", ""), ("/play/tok/display", ""), ("/api/v1/duels/d1/changes/x", "")]:
        assert not follows(path, query), path


def test_the_caps_keep_a_reserve_for_the_pages_polls_and_half_for_one_address():
    assert follow_caps(256) == {"LONG_POLL_SLOTS": 224, "LONG_POLL_PER_CLIENT": 112}
    assert follow_caps(8) == {"LONG_POLL_SLOTS": 4, "LONG_POLL_PER_CLIENT": 2}
