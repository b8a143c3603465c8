from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User

from console.models import AuditEntry, ClusterRole


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "actor", "action", "cluster", "target", "outcome")
    list_filter = ("action", "outcome", "cluster")
    search_fields = ("actor", "target")


class ClusterRoleInline(admin.TabularInline):
    """A user's roles on single clusters, beside its groups (its role on every cluster)."""

    model = ClusterRole
    extra = 0


admin.site.unregister(User)


@admin.register(User)
class ConsoleUserAdmin(UserAdmin):
    inlines = [*UserAdmin.inlines, ClusterRoleInline]
