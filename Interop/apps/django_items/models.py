from django.db import models


class Item(models.Model):
    title = models.CharField(max_length=100)
    created = models.DateTimeField()
    updated_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
