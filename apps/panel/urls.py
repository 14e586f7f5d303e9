"""The owner panel, mounted at /panel/ (APPEND_SLASH is off: paths are exact)."""

from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from apps.panel.views import (
    agents,
    api_keys,
    auth,
    billing,
    business_settings,
    dashboard,
    displays,
    kiosks,
    menu,
    orders,
    queue,
    reports,
    sessions,
    webhooks,
)

app_name = "panel"

password_reset = [
    path(
        "password-reset",
        auth_views.PasswordResetView.as_view(
            template_name="panel/password_reset_form.html",
            email_template_name="panel/password_reset_email.txt",
            subject_template_name="panel/password_reset_subject.txt",
            success_url=reverse_lazy("panel:password_reset_done"),
        ),
        name="password_reset",
    ),
    path(
        "password-reset/sent",
        auth_views.PasswordResetDoneView.as_view(template_name="panel/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "password-reset/<uidb64>/<token>",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="panel/password_reset_confirm.html", success_url=reverse_lazy("panel:password_reset_complete")
        ),
        name="password_reset_confirm",
    ),
    path(
        "password-reset/done",
        auth_views.PasswordResetCompleteView.as_view(template_name="panel/password_reset_complete.html"),
        name="password_reset_complete",
    ),
]

urlpatterns = [
    *password_reset,
    path("login", auth.login_view, name="login"),
    path("login/2fa", auth.login_two_factor_view, name="login_2fa"),
    path("logout", auth.logout_view, name="logout"),
    path("account/two-factor", auth.two_factor_view, name="two_factor"),
    path("", dashboard.dashboard, name="dashboard"),
    path("kiosks", kiosks.kiosk_list, name="kiosks"),
    path("kiosks/pairing-code", kiosks.pairing_code_create, name="pairing_code_create"),
    path("kiosks/pairing-codes/<int:pairing_id>", kiosks.pairing_code_state, name="pairing_code_state"),
    path("kiosks/<int:kiosk_id>/rename", kiosks.kiosk_rename, name="kiosk_rename"),
    path("kiosks/<int:kiosk_id>/unpair", kiosks.kiosk_unpair, name="kiosk_unpair"),
    path("kiosks/<int:kiosk_id>/reader", kiosks.kiosk_reader_register, name="kiosk_reader"),
    path("kiosks/<int:kiosk_id>/reader/remove", kiosks.kiosk_reader_remove, name="kiosk_reader_remove"),
    path("agents", agents.agent_list, name="agents"),
    path("agents/<int:agent_id>/disable", agents.agent_disable, name="agent_disable"),
    path("agents/<int:agent_id>/languages", agents.agent_languages, name="agent_languages"),
    path("agents/<int:agent_id>/reset-2fa", agents.agent_reset_two_factor, name="agent_reset_2fa"),
    path("agents/<int:agent_id>/unlock-sign-in", agents.agent_unlock_sign_in, name="agent_unlock_sign_in"),
    path("menu", menu.catalog_list, name="menu"),
    path("menu/catalogs/<int:catalog_id>", menu.catalog_detail, name="catalog"),
    path("menu/catalogs/<int:catalog_id>/activate", menu.catalog_activate, name="catalog_activate"),
    path("menu/categories/<int:category_id>", menu.category_edit, name="category"),
    path("menu/categories/<int:category_id>/items/new", menu.item_create, name="menu_item_create"),
    path("menu/items/<int:item_id>", menu.item_edit, name="menu_item"),
    path("menu/items/<int:item_id>/groups", menu.group_save, name="modifier_group_create"),
    path("menu/items/<int:item_id>/groups/<int:group_id>", menu.group_save, name="modifier_group"),
    path("menu/groups/<int:group_id>/options", menu.option_save, name="modifier_option_create"),
    path("menu/groups/<int:group_id>/options/<int:option_id>", menu.option_save, name="modifier_option"),
    path("orders", orders.order_list, name="orders"),
    path("orders/<int:order_id>", orders.order_detail, name="order"),
    path("orders/<int:order_id>/status", orders.order_move, name="order_move"),
    path("orders/<int:order_id>/refund", orders.order_refund, name="order_refund"),
    path("sessions", sessions.session_list, name="sessions"),
    path("queue", queue.queue_page, name="queue"),
    path("queue/board", queue.queue_board, name="queue_board"),
    path("displays", displays.display_list, name="displays"),
    path("displays/<int:display_id>/revoke", displays.display_revoke, name="display_revoke"),
    path("displays/dining", displays.order_settings, name="order_settings"),
    path("reports", reports.reports_page, name="reports"),
    path("reports/table.csv", reports.reports_table_csv, name="reports_table_csv"),
    path("reports/sessions", reports.reports_sessions, name="reports_sessions"),
    path("reports/sessions.csv", reports.reports_sessions_csv, name="reports_sessions_csv"),
    path("reports/sessions/<str:public_id>", reports.session_detail, name="report_session"),
    path("webhooks", webhooks.webhook_list, name="webhooks"),
    path("webhooks/<int:subscription_id>", webhooks.webhook_detail, name="webhook"),
    path("webhooks/<int:subscription_id>/test", webhooks.webhook_test, name="webhook_test"),
    path("webhooks/<int:subscription_id>/reenable", webhooks.webhook_reenable, name="webhook_reenable"),
    path("webhooks/<int:subscription_id>/delete", webhooks.webhook_delete, name="webhook_delete"),
    path("webhooks/deliveries/<int:delivery_id>/resend", webhooks.delivery_resend, name="delivery_resend"),
    path("api-keys", api_keys.api_key_list, name="api_keys"),
    path("api-keys/<int:key_id>/revoke", api_keys.api_key_revoke, name="api_key_revoke"),
    path("billing", billing.billing_page, name="billing"),
    path("billing/onboarding", billing.billing_onboarding, name="billing_onboarding"),
    path("settings", business_settings.settings_page, name="settings"),
    path("settings/routing", business_settings.routing_settings_page, name="routing_settings"),
]
