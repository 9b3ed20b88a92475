"""The pygame client of Seventh Street: the table as one seat sees it.

Importing any module of this package does nothing: no ``pygame.init()``, no
window, no socket.  ``client.app.App`` does all of that when it is run.
"""
