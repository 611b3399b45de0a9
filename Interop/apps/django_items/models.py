"""The Django app behind the Django servers: one `Item` model, seeded with the shared dataset.

`created` and `updated_at` default to the time of creation, so an item POSTed with a
title alone is valid to the writable servers' serializers and schemas."""
from django.db import models
from django.utils import timezone


class Author(models.Model):
    name = models.CharField(max_length=100)

    class Meta:
        ordering = ["id"]


class Item(models.Model):
    title = models.CharField(max_length=100)
    created = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    # Set only through drf_app's /drf/posts/ (its create takes a write-only `author_id`).
    author = models.ForeignKey(Author, null=True, blank=True, on_delete=models.SET_NULL, related_name="items")

    class Meta:
        ordering = ["id"]
