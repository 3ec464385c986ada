"""Where phones find the hub: the LAN address and the mDNS name, on the join page too."""
from __future__ import annotations

import socket

from tablehub import lan


def test_the_mdns_name_is_the_short_host_name_dot_local():
    assert lan.mdns_name("kitchen") == "kitchen.local"
    assert lan.mdns_name("kitchen.example.org") == "kitchen.local"


def test_page_urls_put_the_lan_address_first_and_leave_out_the_port_80(monkeypatch):
    monkeypatch.setattr(lan, "lan_ip", lambda: "192.0.2.7")
    monkeypatch.setattr(socket, "gethostname", lambda: "kitchen")
    assert lan.page_urls(8080) == ["http://192.0.2.7:8080/", "http://kitchen.local:8080/"]
    assert lan.page_urls(80) == ["http://192.0.2.7/", "http://kitchen.local/"]
    assert lan.page_urls(8080, "127.0.0.1") == ["http://localhost:8080/"]


def test_without_a_network_only_localhost_is_offered(monkeypatch):
    monkeypatch.setattr(lan, "lan_ip", lambda: None)
    assert lan.page_urls(8080) == ["http://localhost:8080/"]


def test_the_join_page_names_this_hub_and_its_port_not_tablehub_local(store, monkeypatch):
    from web import Hub, create_app

    monkeypatch.setattr(socket, "gethostname", lambda: "kitchen")
    client = create_app(Hub(store, pin="1234", port=8123)).test_client()
    html = client.get("/join", base_url="http://127.0.0.1:8123").data.decode()
    assert "http://kitchen.local:8123/" in html
    assert "tablehub.local" not in html
