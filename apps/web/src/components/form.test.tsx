import type { ComponentProps, ReactElement, SubmitEvent } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { Form } from './form';

describe('Form', () => {
  it('renders a <form> with the browser’s validation off, every other prop passed through', () => {
    const html = renderToStaticMarkup(
      <Form onSubmit={() => undefined} id="login" className="space-y-4" data-testid="login-form" aria-label="Login">
        <button type="submit">Login</button>
      </Form>,
    );
    expect(html).toBe(
      '<form noValidate="" id="login" class="space-y-4" data-testid="login-form" aria-label="Login"><button type="submit">Login</button></form>',
    );
  });

  it('keeps the page on a submit, then does the form’s work once', () => {
    const onSubmit = vi.fn();
    // No browser here: the element's handler gets the DOM's own submit event, whose default (sending the form and
    // loading the answer) runs only when no handler prevented it.
    const form = Form({ onSubmit }) as ReactElement<ComponentProps<'form'>>;
    const event = new Event('submit', { cancelable: true });
    const prevented = vi.spyOn(event, 'preventDefault');
    form.props.onSubmit?.(event as unknown as SubmitEvent<HTMLFormElement>);
    expect(event.defaultPrevented).toBe(true);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith();
    expect(prevented.mock.invocationCallOrder[0]).toBeLessThan(onSubmit.mock.invocationCallOrder[0] ?? 0);
  });
});
