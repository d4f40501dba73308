"""What the mocks' tests share: the reference host on loopback, with a client that trusts it."""

from __future__ import annotations

import ssl
from collections.abc import Iterator

import httpx
import pytest

from mocks.reference.woa_host import create_app
from mocks.serve import ServedMock
from mocks.serve import serve


@pytest.fixture(scope="module")
def host() -> Iterator[tuple[ServedMock, httpx.Client]]:
    """The reference host served for the module's tests, and a client of it."""
    with serve(create_app) as mock:
        assert mock.cacert is not None
        with httpx.Client(
            base_url=mock.url, verify=ssl.create_default_context(cafile=str(mock.cacert))
        ) as client:
            yield mock, client
