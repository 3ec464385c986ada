"""A broker secured as docs/venue.md says: passwords (mosquitto_passwd) and TLS (a café's own CA)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from tablehub.config import VenueConfig
from tablehub.games.base import Setup
from tablehub.session import Session
from tablehub.store import Store
from tablehub.venue.board import BoardListener, VenueBoard
from tablehub.venue.broker import LocalBroker, mosquitto_path
from tablehub.venue.publisher import VenuePublisher

from .conftest import wait_for


def run(*cmd: str, cwd=None) -> None:
    subprocess.run(cmd, cwd=cwd, check=True, capture_output=True)


@pytest.fixture()
def secure_broker(tmp_path):
    passwd = shutil.which("mosquitto_passwd")
    if mosquitto_path() is None or passwd is None or shutil.which("openssl") is None:
        pytest.skip("needs mosquitto, mosquitto_passwd and openssl")
    # the café's own CA and the broker's certificate, as in docs/venue.md
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    run("openssl", "req", "-x509", *ec, "-days", "2", "-subj", "/CN=cafe CA",
        "-keyout", "ca.key", "-out", "ca.crt", cwd=tmp_path)
    run("openssl", "req", *ec, "-subj", "/CN=127.0.0.1", "-keyout", "server.key",
        "-out", "server.csr", cwd=tmp_path)
    (tmp_path / "san.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
        "-days", "2", "-extfile", "san.ext", "-out", "server.crt", cwd=tmp_path)
    run(passwd, "-c", "-b", str(tmp_path / "passwd"), "table-1", "s3cret")
    run(passwd, "-b", str(tmp_path / "passwd"), "board", "b0ard")
    (tmp_path / "acl").write_text("user board\ntopic read tablehub/#\n\n"
                                  "pattern write tablehub/cafe/%u/#\n")
    broker = LocalBroker(listener_config=f"allow_anonymous false\npassword_file {tmp_path / 'passwd'}\n"
                                         f"acl_file {tmp_path / 'acl'}\n"
                                         f"cafile {tmp_path / 'ca.crt'}\ncertfile {tmp_path / 'server.crt'}\n"
                                         f"keyfile {tmp_path / 'server.key'}\n").start()
    yield broker, tmp_path / "ca.crt"
    broker.close()


def test_tls_and_passwords(secure_broker):
    broker, ca = secure_broker
    common = dict(broker=broker.host, port=broker.port, venue="cafe", tls=True, ca_file=str(ca), keepalive=5)
    board = VenueBoard("cafe")
    listener = BoardListener(VenueConfig(table="board", username="board", password="b0ard", **common), board).start()
    intruder_board = VenueBoard("cafe")
    intruder = BoardListener(VenueConfig(table="x", username="board", password="wrong", **common),
                             intruder_board).start()
    plain = BoardListener(VenueConfig(broker=broker.host, port=broker.port, venue="cafe", table="y"),
                          VenueBoard("cafe")).start()  # no TLS, no password
    store = Store()
    session = Session.create(store, Setup("neuesland", ("Ana", "Ben")))
    publisher = VenuePublisher(VenueConfig(table="table-1", username="table-1", password="s3cret", **common)).start()
    publisher.attach(session)
    # a table may only write under its own name (the ACL's pattern): table-1 posing as table-2 goes nowhere
    impostor = VenuePublisher(VenueConfig(table="table-2", username="table-1", password="s3cret", **common)).start()
    impostor.attach(session)
    try:
        assert listener.connected.wait(10), "the board could not connect with TLS and its password"
        wait_for(lambda: board.tables() and board.tables()[0]["online"], what="the table over TLS")
        assert board.tables()[0]["players"][0]["name"] == "Ana"
        assert not intruder.connected.is_set() and not plain.connected.is_set()
        assert intruder_board.tables() == []
        wait_for(impostor.connected.is_set, what="the impostor's connection")
        wait_for(lambda: impostor.idle() and impostor.pending() == 0, what="the impostor's messages sent")
        assert [t["table"] for t in board.tables()] == ["table-1"]
    finally:
        impostor.close()
        publisher.close()
        for c in (listener, intruder, plain):
            c.close()
        store.close()
