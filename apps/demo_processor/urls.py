from django.urls import path

from apps.demo_processor import views

app_name = "demo_processor"
urlpatterns = [
    path("v1/payment_intents", views.payment_intents),
    path("v1/payment_intents/<str:intent_id>", views.payment_intent),
    path("v1/payment_intents/<str:intent_id>/cancel", views.payment_intent_cancel),
    path("v1/payment_intents/<str:intent_id>/confirm", views.confirm, name="confirm"),
    path("v1/refunds", views.refunds),
    path("v1/terminal/locations", views.terminal_locations),
    path("v1/terminal/readers", views.terminal_readers),
    path("v1/terminal/readers/<str:reader_id>", views.terminal_reader),
    path("v1/terminal/readers/<str:reader_id>/process_payment_intent", views.terminal_reader_process),
    path("v1/terminal/readers/<str:reader_id>/cancel_action", views.terminal_reader_cancel),
    path(
        "v1/test_helpers/terminal/readers/<str:reader_id>/present_payment_method",
        views.terminal_reader_present,
    ),
    path("v1/accounts", views.accounts),
    path("v1/account_links", views.account_links),
    path("connect/<str:account_id>/onboarding", views.onboarding, name="onboarding"),
    path("readers/<str:reader_id>/", views.reader_page, name="reader_page"),
    path("readers/<str:reader_id>/state", views.reader_state, name="reader_state"),
    path("readers/<str:reader_id>/present", views.reader_present, name="reader_present"),
]
