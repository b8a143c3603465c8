from django.contrib import admin

from console.models import AuditEntry


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ("at", "actor", "action", "cluster", "target", "outcome")
    list_filter = ("action", "outcome", "cluster")
    search_fields = ("actor", "target")
