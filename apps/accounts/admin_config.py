"""django.contrib.admin with the site of apps/accounts/admin_site.py (sign-in limits), through the
documented `default_site` hook. A module of its own: INSTALLED_APPS imports it before models load."""

from django.contrib.admin.apps import AdminConfig


class LimitedAdminConfig(AdminConfig):
    default_site = "apps.accounts.admin_site.LimitedAdminSite"
