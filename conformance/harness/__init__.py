"""Servers the suite itself runs on loopback, to certify clients: spies that play the server side
and record every request they get."""
