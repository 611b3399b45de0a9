"""The Django app behind the Django servers: one `Item` model, seeded with the shared dataset.

`created` and `updated_at` default to the time of creation, so an item POSTed with a
title alone is valid to the writable servers' serializers and schemas."""
from django.db import models
from django.utils import timezone


class Item(models.Model):
    title = models.CharField(max_length=100)
    created = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
