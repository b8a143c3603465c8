from console.api.routes import routes
from reassign.api import views

urlpatterns = [
    *routes(
        "clusters/<str:cluster>/reassignments",
        [("/plan", views.PlanView, "reassignment-plan")],
    ),
]
