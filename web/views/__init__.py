"""The app's blueprints: pages (HTML), api (JSON), stream (Server-Sent Events), media (QR codes, camera)."""
