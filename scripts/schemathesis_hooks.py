"""Schemathesis hooks for Muster: each operation gets the API key of the kind that may call it.

Keys come from the environment (the Swift test that runs schemathesis issues them):
MUSTER_ST_OPL_KEY (every OPL scope, and devices:register), MUSTER_ST_ANALYTICS_KEY (an app's analytics and crash
scopes), MUSTER_ST_ADMIN_KEY (admin:platform), MUSTER_ST_POP_KEY (read:civics, write:civics, export:newsletter); and MUSTER_ST_BEARER, a person's access token for
the routes that take one (OFFLEASH's /auth/validate, /auth/logout, /users/me).
"""
import os

import schemathesis

# Voice enrollments take the WAV itself as the body: sent as raw bytes, like octet-stream.
schemathesis.serializer.alias("audio/wav", "application/octet-stream")
# The field app's resumable-upload appends (IETF resumable uploads): raw bytes too.
schemathesis.serializer.alias("application/partial-upload", "application/octet-stream")


def key_for(path: str) -> str:
    if path.startswith("/api/analytics") or path.startswith("/dashboards"):
        return os.environ["MUSTER_ST_ANALYTICS_KEY"]
    if path in ("/api/platform/keys", "/api/platform/projections"):
        return os.environ["MUSTER_ST_ADMIN_KEY"]
    if path.startswith("/api/pop/"):
        return os.environ["MUSTER_ST_POP_KEY"]
    return os.environ["MUSTER_ST_OPL_KEY"]


@schemathesis.auth()
class MusterKeys:
    # Schemathesis caches what get() returns across operations, so the key is chosen in set().
    def get(self, case, ctx):
        return "per-operation"

    def set(self, case, data, ctx):
        case.headers = case.headers or {}
        case.headers["X-API-Key"] = key_for(case.operation.path)
        if case.operation.path in ("/auth/validate", "/auth/logout", "/users/me", "/api/pop/installs/{installId}/link"):
            case.headers["Authorization"] = "Bearer " + os.environ["MUSTER_ST_BEARER"]
