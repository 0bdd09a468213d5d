"""Async client for SAP's ABAP Development Tools (ADT) REST API."""
