"""The WebSocket API's function (issue 33): its subscribe route (no $connect or $disconnect route)."""
