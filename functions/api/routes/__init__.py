"""The API's routes, one Powertools ``Router`` per resource (functions/api/handler.py includes them)."""
