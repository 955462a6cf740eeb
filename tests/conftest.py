"""Suite-wide test set-up.

Starlette's test client sends ``Host: testserver``. An app made by ``create_app`` without
``allowed_hosts`` answers only the loopback names (security.LOCAL_HOSTS: a DNS-rebinding
page sends its own name and is refused), so the suite adds the test client's name to that
default here — in this test process only; servers started as processes keep the real
defaults."""

from __future__ import annotations

from asobiba.server import security

if "testserver" not in security.LOCAL_HOSTS:
    security.LOCAL_HOSTS = (*security.LOCAL_HOSTS, "testserver")
