"""Create the first admin user once, printing its credentials once.

The password comes from CONSOLE_ADMIN_PASSWORD when set (and is then kept in sync with it),
otherwise it is generated and printed only when the user is created.
"""

import os
import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from console.roles import grant_role


class Command(BaseCommand):
    help = "Create the first admin user (CONSOLE_ADMIN_USERNAME / CONSOLE_ADMIN_PASSWORD)."

    def handle(self, *args, **options) -> None:
        username = os.environ.get("CONSOLE_ADMIN_USERNAME", "admin")
        password = os.environ.get("CONSOLE_ADMIN_PASSWORD")
        users = get_user_model().objects
        user = users.filter(username=username).first()
        if user is None:
            generated = password is None
            password = password or secrets.token_urlsafe(12)
            user = users.create_user(username=username, password=password)
            grant_role(user, "admin")
            user.is_staff = user.is_superuser = True  # so /admin/ (users and roles) works
            user.save()
            shown = password if generated else "(from CONSOLE_ADMIN_PASSWORD)"
            self.stdout.write(
                self.style.SUCCESS(f"Created admin user {username!r}, password: {shown}")
            )
            self.stdout.write("This password is shown once; change it in /admin/ if you like.")
            return
        if password is not None and not user.check_password(password):
            user.set_password(password)
            user.save()
            self.stdout.write(f"Admin user {username!r}: password set from CONSOLE_ADMIN_PASSWORD.")
        grant_role(user, "admin")
        if not (user.is_staff and user.is_superuser):
            user.is_staff = user.is_superuser = True
            user.save()
        self.stdout.write(f"Admin user {username!r} already exists.")
