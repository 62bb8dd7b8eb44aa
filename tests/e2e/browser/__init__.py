"""Browser tests of the web client (Playwright driving Chromium)."""
