"""The WebSocket API's function (issue 33): $connect, $disconnect and subscribe."""
